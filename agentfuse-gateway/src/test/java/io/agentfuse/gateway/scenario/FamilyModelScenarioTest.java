package io.agentfuse.gateway.scenario;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Models that need no entry (docs/design.md §6): a request for a model of a built-in provider's family
 * that {@code models:} does not name is served by that provider under its own name, with a
 * breaker of its own — for a bounded number of such names, so that a client inventing names
 * cannot grow the gateway's breakers and metrics without end; and the default
 * {@code subagents.fallbacks}, which name such models ({@code claude-haiku-4}, which Anthropic serves
 * as {@code claude-haiku-4-5}).
 */
class FamilyModelScenarioTest {

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aFamilyModelWithoutAnEntryIsServedByItsProvider() {
        harness = GatewayHarness.start();

        Reply openAi = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o", false));
        Reply anthropic = harness.client.post("/v1/messages", anthropicRequest("claude-opus-4-1", false));

        assertThat(openAi.status()).isEqualTo(200);
        assertThat(anthropic.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).hasSize(2);
        assertThat(harness.mock.requests().get(0).path()).isEqualTo("/v1/chat/completions");
        assertThat(harness.mock.requests().get(0).jsonBody().orElseThrow().getString("model")).isEqualTo("gpt-4o");
        assertThat(harness.mock.requests().get(1).path()).isEqualTo("/v1/messages");
        assertThat(harness.mock.requests().get(1).jsonBody().orElseThrow().getString("model")).isEqualTo("claude-opus-4-1");
        assertThat(harness.gateway.runtime().registry().find("model:gpt-4o")).isPresent();
        assertThat(harness.gateway.runtime().registry().find("model:claude-opus-4-1")).isPresent();
    }

    @Test
    void invitedNamesBeyondTheBoundAre404AndGrowNothing() {
        harness = GatewayHarness.start();
        for (int i = 0; i < ConfigDefaults.UNCONFIGURED_FAMILY_MODELS; i++) {
            assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gpt-invented-" + i, false)).status())
                    .isEqualTo(200);
        }
        int breakers = harness.gateway.runtime().registry().all().size();

        Reply beyond = harness.client.post("/v1/chat/completions", openAiRequest("gpt-invented-x", false));
        Reply again = harness.client.post("/v1/chat/completions", openAiRequest("gpt-invented-0", false));
        Reply configured = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(beyond.status()).isEqualTo(404);
        assertThat(beyond.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(beyond.json().getJsonObject("error").getString("message"))
                .contains("gpt-invented-x").contains("add it under models:");
        assertThat(again.status()).isEqualTo(200);
        assertThat(configured.status()).isEqualTo(200);
        assertThat(harness.gateway.runtime().registry().all()).hasSize(breakers);
        assertThat(harness.gateway.runtime().registry().find("model:gpt-invented-x")).isEmpty();
    }

    @Test
    void anInventedNameLongerThanAnyVendorsIsA404OfItsOwnSizeAndGrowsNothing() {
        harness = GatewayHarness.start();
        int breakers = harness.gateway.runtime().registry().all().size();
        String invented = "claude-" + "z".repeat(12_000);

        Reply refused = harness.client.post("/v1/messages", anthropicRequest(invented, false));

        // Served, it would have been named whole in x-agentfuse-model (a head line most clients refuse),
        // by its breaker and by every meter of the model.
        assertThat(refused.status()).as(refused.body()).isEqualTo(404);
        assertThat(refused.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(refused.json().getJsonObject("error").getString("message"))
                .startsWith("model 'claude-zzz").contains("(12007 characters) is not configured");
        assertThat(refused.body().length()).isLessThan(1_000);
        assertThat(harness.mock.requests()).isEmpty();
        assertThat(harness.gateway.runtime().registry().all()).hasSize(breakers);
        assertThat(harness.client.get("/metrics").body()).doesNotContain("zzzzzzzz");
    }

    @Test
    void aNameWithALineBreakIsA404ThatForgesNoHeadAndNoLogLineAndGrowsNothing() {
        harness = GatewayHarness.start();
        int breakers = harness.gateway.runtime().registry().all().size();
        String forging = "gpt-4o ended 200 after 1 ms\r\n2026-01-01T00:00:00.000Z INFO  ConfigReloader: forged";

        Reply refused = harness.client.post("/v1/chat/completions", openAiRequest(forging, false));

        assertThat(refused.status()).as(refused.body()).isEqualTo(404);
        assertThat(refused.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(refused.header("x-agentfuse-model")).isNull();
        assertThat(harness.mock.requests()).isEmpty();
        assertThat(harness.gateway.runtime().registry().all()).hasSize(breakers);
        assertThat(harness.client.get("/metrics").body()).doesNotContain("forged");
    }

    @Test
    void givenEveryPlaceTakenByInventedNamesWhenSomeIdlePastTheIdleTimeThenANewNameIsServedAndTheIdleOnesSeriesGo() {
        // Given a caller that took every place for unconfigured family names, on a clock the test moves
        ManualClock clock = new ManualClock();
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).clock(clock).build());
        int places = ConfigDefaults.UNCONFIGURED_FAMILY_MODELS;
        for (int i = 0; i < places; i++) {
            assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gpt-invented-" + i, false)).status())
                    .isEqualTo(200);
        }
        int configured = harness.gateway.runtime().config().models().size();
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("claude-opus-4-1", false)).status())
                .as("refused while every place is in use").isEqualTo(404);

        // When half of them are used again within the registry's idle time (one hour), the others not
        clock.advance(Duration.ofMinutes(30));
        for (int i = 0; i < places / 2; i++) {
            harness.client.post("/v1/chat/completions", openAiRequest("gpt-invented-" + i, false));
        }
        clock.advance(Duration.ofMinutes(30));
        Reply served = harness.client.post("/v1/chat/completions", anthropicRequest("claude-opus-4-1", false));

        // Then the idle ones made room for the new name, and their breakers and series went with them
        assertThat(served.status()).isEqualTo(200);
        assertThat(harness.gateway.runtime().registry().all()).hasSize(configured + places / 2 + 1);
        String metrics = harness.metricsText();
        assertThat(metrics).contains("model=\"claude-opus-4-1\"").contains("name=\"model:claude-opus-4-1\"");
        assertThat(metrics.lines().filter(line -> line.contains("gpt-invented-"))
                .map(line -> line.replaceAll(".*gpt-invented-([0-9]+).*", "$1")).distinct().map(Integer::parseInt))
                .as("the names whose series are left").allMatch(i -> i < places / 2).hasSize(places / 2);
    }

    @Test
    void aSubagentFallsBackAlongTheDefaultFallbacksThatNoEntryNames() {
        harness = GatewayHarness.start("""
                server: { port: 0 }
                providers:
                  anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
                  openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
                retry: { maxAttempts: 1 }
                models:
                  local-primary: { provider: openai }
                """);
        harness.mock.scriptForModel("local-primary", MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("local-primary", false),
                Map.of("x-agentfuse-subagent", "researcher-1"));

        // claude-haiku-4 answers, called upstream by the name Anthropic serves it by (it has no claude-haiku-4)
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("local-primary=SERVER_ERROR(HTTP 500)");
        assertThat(harness.mock.requests()).extracting(request -> request.jsonBody().orElseThrow().getString("model"))
                .containsExactly("local-primary", "claude-haiku-4-5");
    }

    @Test
    void aNameOfNoFamilyIsStill404ListingTheConfiguredModels() {
        harness = GatewayHarness.start();

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("llama-3.1-70b", false));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("llama-3.1-70b").contains("claude-sonnet-4, claude-haiku-4, gpt-4o-mini");
        assertThat(harness.mock.requests()).isEmpty();
    }
}
