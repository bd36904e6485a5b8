package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Budgets through a real gateway and mock provider on loopback (docs/design.md §11). */
class BudgetScenarioTest {

    /** Each call the mock answers uses 10 + 90 tokens. */
    private static final MockStep HUNDRED_TOKENS = MockStep.builder().inputTokens(10).outputTokens(90).build();

    private GatewayHarness gateway;

    @AfterEach
    void stop() {
        gateway.close();
    }

    private GatewayHarness start(String budgets) {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + budgets);
        gateway.mock.defaultStep(HUNDRED_TOKENS);
        return gateway;
    }

    private static Map<String, String> tenant(String tenant) {
        return Map.of("x-agentfuse-tenant", tenant);
    }

    private static String nextUtcMidnight() {
        return LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toString();
    }

    private Reply ask(String model, Map<String, String> headers) {
        return gateway.client.post("/v1/messages", anthropicRequest(model, false), headers);
    }

    @Test
    void aTenantThatSpentItsTokensIsRefusedBeforeAnyUpstreamCallWithTheContractsAnswer() {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 1000, window: 1d }
                """);
        List<String> remaining = new ArrayList<>();
        Reply reply;
        while ((reply = ask("claude-haiku-4", tenant("team-a"))).status() == 200) {
            remaining.add(reply.header("x-agentfuse-budget"));
        }
        long upstreamCalls = gateway.mock.requests().size();

        assertThat(remaining).hasSize(10);
        assertThat(remaining.get(0)).isEqualTo("per-tenant; scope=tenant; remaining=900; resets=" + nextUtcMidnight());
        assertThat(remaining.get(9)).startsWith("per-tenant; scope=tenant; remaining=0;");
        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
        assertThat(reply.header("retry-after")).isNull();
        assertThat(reply.header("x-agentfuse-budget"))
                .isEqualTo("per-tenant; scope=tenant; remaining=0; resets=" + nextUtcMidnight());
        assertThat(reply.json().getString("type")).isEqualTo("error");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("budget_exceeded");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("insufficient_quota");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("per-tenant").contains("team-a");
        assertThat(upstreamCalls).isEqualTo(10);
    }

    @Test
    void theOpenAiDialectsRefusalCarriesTheCodeClientsTreatAsFinal() {
        start("""
                budgets:
                  everything: { scope: global, tokens: 100 }
                """);
        JsonObject body = GatewayHarness.openAiRequest("gpt-4o-mini", false).put("max_tokens", 100);
        gateway.client.post("/v1/chat/completions", body);

        Reply refused = gateway.client.post("/v1/chat/completions", body);

        assertThat(refused.status()).isEqualTo(429);
        JsonObject error = refused.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("budget_exceeded");
        assertThat(error.getString("code")).isEqualTo("insufficient_quota");
        assertThat(refused.header("x-agentfuse-budget")).startsWith("everything; scope=global; remaining=0; resets=");
    }

    @Test
    void requestsWithoutTheScopesHeaderAreNotCounted() {
        start("""
                budgets:
                  per-session: { scope: session, tokens: 100 }
                """);

        for (int i = 0; i < 3; i++) {
            Reply reply = ask("claude-haiku-4", Map.of());
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-budget")).isNull();
        }
        assertThat(ask("claude-haiku-4", Map.of("x-agentfuse-session", "s1")).header("x-agentfuse-budget"))
                .startsWith("per-session; scope=session; remaining=0;");
    }

    @Test
    void aSpentBudgetWithAFallbackSwitchesTheSessionToTheCheaperModelAndNamesWhy() {
        start("""
                budgets:
                  per-session: { scope: session, tokens: 200, onExhausted: { fallback: gpt-4o-mini } }
                """);
        Map<String, String> session = Map.of("x-agentfuse-session", "s1");
        ask("claude-sonnet-4", session);
        ask("claude-sonnet-4", session);

        Reply switched = ask("claude-sonnet-4", session);

        assertThat(switched.status()).isEqualTo(200);
        assertThat(switched.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(switched.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=budget_exceeded");
        assertThat(switched.header("x-agentfuse-budget")).startsWith("per-session; scope=session; remaining=0;");
        assertThat(switched.json().getString("type")).isEqualTo("message"); // still the caller's dialect
        assertThat(gateway.requestsFor("gpt-4o-mini")).isEqualTo(1);
        assertThat(gateway.metricsText()).contains("agentfuse_fallbacks_total{from=\"claude-sonnet-4\",reason=\"budget_exceeded\",to=\"gpt-4o-mini\"} 1.0");
    }

    @Test
    void aFallbackIsStillCountedByTheOtherBudgetsAndRefusedWhenTheyAreSpent() {
        start("""
                budgets:
                  per-session: { scope: session, tokens: 100, onExhausted: { fallback: gpt-4o-mini } }
                  per-tenant: { scope: tenant, tokens: 300 }
                """);
        Map<String, String> caller = Map.of("x-agentfuse-session", "s1", "x-agentfuse-tenant", "team-a");
        List<String> models = new ArrayList<>();
        Reply reply;
        while ((reply = ask("claude-sonnet-4", caller)).status() == 200) {
            models.add(reply.header("x-agentfuse-model"));
        }

        assertThat(models).containsExactly("claude-sonnet-4", "gpt-4o-mini", "gpt-4o-mini");
        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.header("x-agentfuse-budget")).startsWith("per-tenant; scope=tenant; remaining=0;");
    }

    @Test
    void aStreamSettlesWithTheUsageItReportsAtItsEnd() {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 1000 }
                """);
        StreamReply stream = gateway.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), tenant("team-a"));

        Reply after = ask("claude-haiku-4", tenant("team-a"));

        assertThat(stream.status()).isEqualTo(200);
        assertThat(stream.header("x-agentfuse-budget")).startsWith("per-tenant; scope=tenant; remaining=");
        assertThat(after.header("x-agentfuse-budget")).startsWith("per-tenant; scope=tenant; remaining=800;");
    }

    @Test
    void aStreamThatBreaksBeforeItsUsageIsToldIsChargedItsReservation() {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 100000 }
                """);
        gateway.mock.defaultStep(MockStep.builder().chunks("Hel", "lo ", "there").drop(MockStep.Drop.MID_STREAM)
                .dropAfterChunks(1).build());
        gateway.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), tenant("team-a"));
        gateway.mock.defaultStep(HUNDRED_TOKENS);

        Reply after = ask("claude-haiku-4", tenant("team-a"));

        long remaining = Long.parseLong(after.header("x-agentfuse-budget").replaceAll(".*remaining=(\\d+);.*", "$1"));
        // the broken stream counted its whole estimate: at least its max_tokens of 100, more than any usage it told
        assertThat(100_000 - 100 - remaining).isGreaterThanOrEqualTo(100);
    }

    @Test
    void anAnswerTheCallersDialectCannotSayIsChargedWhatItsProviderBilled() {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 100000 }
                """);
        // A whole OpenAI answer (3 000 + 500 tokens billed) whose tool arguments an Anthropic caller cannot take
        gateway.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body("{\"id\":\"c1\",\"object\":\"chat.completion\","
                + "\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{\\\"a\\\":\"}}]},\"finish_reason\":\"tool_calls\"}],"
                + "\"usage\":{\"prompt_tokens\":3000,\"completion_tokens\":500}}").build());

        Reply fellBack = ask("gpt-4o-mini", tenant("team-a"));
        Reply after = ask("claude-haiku-4", tenant("team-a"));

        assertThat(fellBack.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=ERROR");
        // the failed attempt's 3 500 tokens, the fallback's 100, and the last request's own 100
        assertThat(after.header("x-agentfuse-budget")).startsWith("per-tenant; scope=tenant; remaining=96300;");
    }

    @Test
    void concurrentRequestsCannotOvershootTogether() throws Exception {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 500 }
                """);
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).delayMs(100).build());
        List<CompletableFuture<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> ask("claude-haiku-4", tenant("team-a"))));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        long admitted = calls.stream().filter(call -> call.join().status() == 200).count();

        // each reserves its estimate (~110 tokens) before it runs: at most the limit plus one estimate is admitted
        assertThat(admitted * 100).isLessThanOrEqualTo(500 + 200);
        assertThat(calls.stream().filter(call -> call.join().status() == 429).count()).isEqualTo(20 - admitted);
        assertThat(gateway.mock.requests()).hasSize((int) admitted);
    }

    @Test
    void aRefusalWhoseWindowEndsWithinAMinuteSaysWhenToComeBack() {
        start("""
                budgets:
                  per-minute: { scope: global, tokens: 100, window: 1m }
                """);
        ask("claude-haiku-4", Map.of());

        Reply refused = ask("claude-haiku-4", Map.of());

        assertThat(refused.status()).isEqualTo(429);
        assertThat(Long.parseLong(refused.header("retry-after"))).isBetween(1L, 60L);
        assertThat(refused.header("x-should-retry")).isEqualTo("false");
        Instant resets = Instant.parse(refused.header("x-agentfuse-budget").replaceAll(".*resets=([^;]+).*", "$1"));
        assertThat(resets.getEpochSecond() % 60).isZero();
    }

    @Test
    void aCostBudgetCountsDollarsAtTheTablesPrices() {
        start("""
                budgets:
                  dollars: { scope: global, cost: 0.002 }
                """);
        // claude-haiku-4: 1 USD / 5 USD per million: 10 in + 90 out = 0.00046 USD a call
        List<String> remaining = new ArrayList<>();
        Reply reply;
        while ((reply = ask("claude-haiku-4", Map.of())).status() == 200) {
            remaining.add(reply.header("x-agentfuse-budget"));
        }

        assertThat(remaining).hasSize(5);
        assertThat(remaining.get(0)).startsWith("dollars; scope=global; remaining=0.00154; resets=");
        assertThat(reply.status()).isEqualTo(429);
    }

    @Test
    void everyErrorUnderABudgetCarriesWhatRemains() {
        start("""
                budgets:
                  per-tenant: { scope: tenant, tokens: 1000 }
                """);
        gateway.mock.defaultStep(MockStep.builder().status(500).build());

        Reply failed = ask("claude-haiku-4", tenant("team-a"));

        assertThat(failed.status()).isEqualTo(502);
        assertThat(failed.header("x-agentfuse-budget")).isEqualTo("per-tenant; scope=tenant; remaining=1000; resets="
                + nextUtcMidnight());
    }

    @Test
    void aMalformedSessionHeaderIsABadRequestNamingIt() {
        start("""
                budgets:
                  per-session: { scope: session, tokens: 100 }
                """);

        Reply reply = ask("claude-haiku-4", Map.of("x-agentfuse-session", "has spaces"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("x-agentfuse-session");
        assertThat(gateway.mock.requests()).isEmpty();
    }

    static JsonObject openAi(String model) {
        return new JsonObject().put("model", model).put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }
}
