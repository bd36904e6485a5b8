package io.agentfuse.gateway.reload;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hot reload over real HTTP (docs/design.md §7): {@code POST /admin/reload} and a change to the file put
 * the new configuration in force all or nothing; unchanged breakers keep their state.
 */
class ConfigReloadTest {

    private static final String BASE = """
            server:
              port: 0
              adminToken: "test-admin-token"
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            retry: { maxAttempts: 1 }
            breakers:
              default: { consecutive5xx: 3, resetTimeout: 5m }
            models:
              gpt-4o-mini: { provider: openai }
            """;

    @TempDir
    Path dir;
    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    /** Replaces the file at once, so that the watcher sees each version whole, once. */
    private Path write(String yaml) throws IOException {
        return GatewayHarness.writeConfig(dir, yaml);
    }

    private Reply reload() {
        return harness.reload();
    }

    @Test
    void aReloadAddsAModelAndKeepsTheStateOfAnUnchangedBreaker() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).times(3).build());
        for (int i = 0; i < 3; i++) {
            harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        }
        assertThat(harness.breaker("gpt-4o-mini").state()).isEqualTo(CircuitState.OPEN);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(404);

        write(BASE + "  mistral-large: { provider: openai }\n");
        Reply reply = reload();

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject answer = reply.json();
        assertThat(answer.getBoolean("reloaded")).isTrue();
        assertThat(answer.getString("trigger")).isEqualTo("admin API");
        assertThat(answer.getJsonObject("breakers").getJsonArray("kept").getList()).contains("model:gpt-4o-mini");
        assertThat(answer.getJsonArray("restartRequired")).isEmpty();
        assertThat(harness.breaker("gpt-4o-mini").state()).as("an open breaker is not closed by a reload").isEqualTo(CircuitState.OPEN);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(200);
    }

    @Test
    void aFileWithAnErrorIsRefusedNamingKeyAndLineAndChangesNothing() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write(BASE.replace("consecutive5xx: 3", "consecutive5xx: 0") + "  mistral-large: { provider: openai }\n");
        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_config");
        assertThat(error.getString("message")).contains("breakers.default.consecutive5xx").contains("agentfuse.yaml:8:");
        assertThat(error.getJsonArray("errors").getJsonObject(0).getInteger("line")).isEqualTo(8);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status())
                .as("the configuration in force stays").isEqualTo(404);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false)).status()).isEqualTo(200);
    }

    @Test
    void serverKeysReadAtStartAreReportedAsNeedingARestart() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write(BASE.replace("  port: 0\n", "  port: 0\n  maxBodySize: 1MB\n  transport: nio\n  headerTimeout: 5s\n"));
        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("restartRequired").getList())
                .containsExactly("server.maxBodySize", "server.transport", "server.headerTimeout");
    }

    /** Regression: the reload answered restartRequired: [] and the old prefix and loss rule stayed in force unsaid. */
    @Test
    void stateRedisKeysReadAtStartAreReportedAsNeedingARestart() throws IOException {
        String onRedis = BASE + "state:\n  store: redis\n  redis: { uri: \"redis://127.0.0.1:1\", keyPrefix: \"a:\" }\n";
        harness = GatewayHarness.startFromFile(write(onRedis), Duration.ZERO);

        write(onRedis.replace("keyPrefix: \"a:\" }", "keyPrefix: \"b:\", budgetOnLoss: closed, budgetWait: 2s }"));
        Reply reply = reload();

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("restartRequired").getList())
                .containsExactly("state.redis.keyPrefix", "state.redis.budgetOnLoss", "state.redis.budgetWait");
    }

    @Test
    void drainDelayAndShutdownGraceAreReadWhenTheStopComesSoAReloadNeedsNoRestart() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write(BASE.replace("  port: 0\n", "  port: 0\n  drainDelay: 1s\n  shutdownGrace: 2m\n"));
        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("restartRequired")).isEmpty();
        assertThat(harness.gateway.runtime().config().server().shutdown().shutdownGrace()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aNewOtlpEndpointIsReportedAsNeedingARestart() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write(BASE + "observability: { otlp: { endpoint: \"http://127.0.0.1:9\" } }\n");
        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("restartRequired").getList()).containsExactly("observability.otlp.endpoint");
    }

    @Test
    void aChangedAdminTokenAppliesToTheNextRequest() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write(BASE.replace("test-admin-token", "rotated-token"));
        assertThat(reload().status()).isEqualTo(200);

        assertThat(reload().status()).as("the old token").isEqualTo(403);
        assertThat(harness.client.post("/admin/reload", new JsonObject(), Map.of("authorization", "Bearer rotated-token")).status())
                .isEqualTo(200);
    }

    @Test
    void aReloadNeedsTheAdminToken() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        Reply anonymous = harness.client.post("/admin/reload", new JsonObject());

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().getJsonObject("error").getString("type")).isEqualTo("unauthorized");
    }

    @Test
    void aGatewayStartedWithoutAFileSaysThereIsNothingToReload() {
        harness = GatewayHarness.start();

        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("reload_unavailable");
    }

    @Test
    void aChangeToTheFileIsPutInForceByTheWatcher() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ofMillis(20));

        write(BASE + "  mistral-large: { provider: openai }\n");

        Eventually.holds(harness.vertx, () -> harness.gateway.runtime().config().models().containsKey("mistral-large"));
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(200);
    }

    @Test
    void theCountersAlertsAreWrittenOnStartAtZeroAndAReloadedModelGetsItsOwn() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ofMillis(20));

        assertThat(harness.metricsText())
                .as("a series that appears at 1 shows no increase(): the first failure would pass unseen")
                .contains("agentfuse_config_reloads_total{result=\"failed\"} 0.0")
                .contains("agentfuse_config_reloads_total{result=\"ok\"} 0.0")
                .contains("agentfuse_stream_interruptions_total{model=\"gpt-4o-mini\"} 0.0")
                .contains("agentfuse_retry_attempts_total{name=\"model:gpt-4o-mini\"} 0.0")
                .contains("agentfuse_retry_budget_refused_total{name=\"model:gpt-4o-mini\"} 0.0")
                .contains("agentfuse_compactions_total{model=\"gpt-4o-mini\",result=\"rolled_back\"} 0.0")
                .contains("agentfuse_compactions_total{model=\"gpt-4o-mini\",result=\"summarized\"} 0.0")
                .contains("agentfuse_compactions_total{model=\"gpt-4o-mini\",result=\"snipped\"} 0.0")
                .contains("agentfuse_breaker_not_permitted_calls_total{name=\"model:gpt-4o-mini\"} 0.0")
                .contains("agentfuse_upstream_attempts_total{model=\"gpt-4o-mini\",outcome=\"SERVER_ERROR\"} 0.0")
                .contains("agentfuse_upstream_attempts_total{model=\"gpt-4o-mini\",outcome=\"RATE_LIMITED\"} 0.0")
                .contains("agentfuse_context_level_total{level=\"REJECT\",model=\"gpt-4o-mini\"} 0.0")
                .doesNotContain("agentfuse_stream_interruptions_total{model=\"mistral-large\"}");

        write(BASE + "  mistral-large: { provider: openai }\n");
        Eventually.holds(harness.vertx, () -> harness.metricsText().contains("agentfuse_config_reloads_total{result=\"ok\"} 1.0"));

        assertThat(harness.metricsText()).contains("agentfuse_stream_interruptions_total{model=\"mistral-large\"} 0.0")
                .contains("agentfuse_retry_budget_refused_total{name=\"model:mistral-large\"} 0.0")
                .contains("agentfuse_config_reloads_total{result=\"failed\"} 0.0");
    }

    @Test
    void theWatcherKeepsTheConfigurationInForceWhenTheFileIsBrokenAndTakesTheFixedOne() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ofMillis(20));

        write(BASE + "  mistral-large: { provider: nowhere }\n");
        Eventually.holds(harness.vertx, () -> harness.metricsText().contains("agentfuse_config_reloads_total{result=\"failed\"} 1.0"));
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(404);

        write(BASE.replace("models:\n", "models:\n  mistral-large: { provider: openai }\n"));
        // The reload is counted just after the configuration is swapped: wait for both.
        Eventually.holds(harness.vertx, () -> harness.gateway.runtime().config().models().containsKey("mistral-large")
                && harness.metricsText().contains("agentfuse_config_reloads_total{result=\"ok\"} 1.0"));
        assertThat(harness.metricsText())
                .as("the broken file is not read again until it changes").contains("agentfuse_config_reloads_total{result=\"failed\"} 1.0");
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false)).status()).isEqualTo(200);
    }

    @Test
    void anEmptyFileIsRefusedRatherThanTakenForAConfigurationWithoutModels() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);

        write("");
        Reply reply = reload();

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("the file is empty");
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false)).status()).isEqualTo(200);
    }
}
