package io.agentfuse.gateway.http;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.LoopbackClient;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class GatewayErrorsTest {

    private Vertx vertx;
    private LoopbackClient client;
    private final AtomicReference<Runnable> answer = new AtomicReference<>();
    private final AtomicReference<io.vertx.core.http.HttpServerResponse> response = new AtomicReference<>();

    @BeforeEach
    void startServer() {
        vertx = GatewayVertx.create();
        HttpServer server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            response.set(request.response());
            answer.get().run();
        }).listen(0, "127.0.0.1"));
        client = new LoopbackClient(vertx, server.actualPort());
    }

    @AfterEach
    void stopVertx() {
        Await.result(vertx.close());
    }

    private Reply answerWith(Dialect dialect, GatewayException failure) {
        answer.set(() -> GatewayErrors.respond(response.get(), dialect, failure));
        return client.get("/");
    }

    @ParameterizedTest
    @CsvSource({
            "CIRCUIT_OPEN, 503, circuit_open",
            "TIMEOUT, 504, timeout",
            "ALL_FALLBACKS_FAILED, 502, all_fallbacks_failed",
            "CONTEXT_WINDOW_FULL, 413, context_window_full",
            "INVALID_REQUEST, 400, invalid_request",
            "MODEL_NOT_FOUND, 404, model_not_found",
            "REQUEST_TOO_LARGE, 413, request_too_large"})
    void answersEachErrorWithItsStatusAndType(GatewayError error, int status, String type) {
        assertThat(error.status()).isEqualTo(status);
        assertThat(error.type()).isEqualTo(type);
    }

    @Test
    void writesOpenAiErrorBody() {
        Reply reply = answerWith(Dialects.OPENAI, new GatewayException(GatewayError.MODEL_NOT_FOUND, "model 'gpt-5' is not configured"));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.headers().get("content-type")).isEqualTo("application/json");
        assertThat(reply.json()).isEqualTo(new JsonObject().put("error", new JsonObject()
                .put("message", "model 'gpt-5' is not configured").put("type", "model_not_found")
                .put("param", null).put("code", "model_not_found")));
    }

    @Test
    void writesAnthropicErrorBody() {
        Reply reply = answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.TIMEOUT, "every step timed out"));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json()).isEqualTo(new JsonObject().put("type", "error")
                .put("error", new JsonObject().put("type", "timeout").put("message", "every step timed out")));
    }

    @Test
    void sendsRetryAfterInWholeSecondsRoundedUpWhenCircuitIsOpen() {
        Reply reply = answerWith(Dialects.ANTHROPIC, GatewayException.circuitOpen("all open", Duration.ofMillis(41_200)));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("retry-after")).isEqualTo("42");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
    }

    @Test
    void anOpenBreakerIsWorthRetryingOnlyWhenItReopensWithinTwentySeconds() {
        assertThat(GatewayErrors.shouldRetryCircuitOpen(0)).isTrue();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(20)).isTrue();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(21)).isFalse();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(-1)).isFalse();
    }

    @Test
    void sendsNoRetryAfterWhenUnknown() {
        Reply reply = answerWith(Dialects.OPENAI, new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "a: 500; b: 529"));

        assertThat(reply.headers().get("retry-after")).isNull();
    }

    @Test
    void answersValidationFailureAsInvalidRequest() {
        answer.set(() -> GatewayErrors.respond(response.get(), Dialects.OPENAI,
                new InvalidRequestException("model", "model is required")));

        Reply reply = client.get("/");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).isEqualTo("model is required");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
    }

    @Test
    void writesStreamErrorEventPerDialect() {
        assertThat(GatewayErrors.streamEvent(Dialects.ANTHROPIC, GatewayError.TIMEOUT, "idle").event()).isEqualTo("error");
        assertThat(new JsonObject(GatewayErrors.streamEvent(Dialects.OPENAI, GatewayError.TIMEOUT, "idle").data())
                .getJsonObject("error").getString("type")).isEqualTo("timeout");
    }

    private Reply answerWith(Dialect dialect, GatewayException failure, ClientRetryRules rules) {
        answer.set(() -> GatewayErrors.respond(response.get(), dialect, failure, rules));
        return client.get("/");
    }

    @Test
    void aShortCircuitOpenSaysRetryWithTheWaitInMillisecondsToo() {
        Reply reply = answerWith(Dialects.OPENAI, GatewayException.circuitOpen("all open", Duration.ofMillis(4_200)));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("true");
        assertThat(reply.headers().get("retry-after")).isEqualTo("5");
        assertThat(reply.headers().get("retry-after-ms")).isEqualTo("4200");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("circuit_open");
    }

    @Test
    void aSubagentLimitWithAShortWaitIsWorthRetrying() {
        Reply reply = answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.SUBAGENT_LIMIT, "5 in flight",
                Duration.ofSeconds(1)));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("true");
        assertThat(reply.headers().get("retry-after-ms")).isEqualTo("1000");
    }

    @Test
    void aFinalRefusalCarriesTheCodeLangChainTreatsAsFinal() {
        Reply reply = answerWith(Dialects.RESPONSES, new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "a: 500"));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("code")).isEqualTo("insufficient_quota");
    }

    @Test
    void aFinalRefusalIsA400ForAClientThatReadsOnlyTheStatus() {
        Reply reply = answerWith(Dialects.OPENAI, new GatewayException(GatewayError.TIMEOUT, "every step timed out"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
    }

    @Test
    void aFinalRefusalToAStatusOnlyGeminiCallerSaysTheStatusSentInItsBodyToo() {
        Reply reply = answerWith(Dialects.GEMINI, new GatewayException(GatewayError.TIMEOUT, "every step timed out"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getInteger("code")).isEqualTo(400); // Gemini CLI retries by this code
        assertThat(reply.json().getJsonObject("error").getString("status")).isEqualTo("DEADLINE_EXCEEDED");
    }

    @Test
    void aSpentBudgetKeepsTheContractsFinal429ForAClientThatReadsOnlyTheStatus() {
        Reply reply = answerWith(Dialects.OPENAI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "per-tenant is spent"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("insufficient_quota");
    }

    @Test
    void aSpentBudgetCarriesTheFinalCodeInTheAnthropicDialectToo() {
        Reply reply = answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.BUDGET_EXCEEDED, "per-tenant is spent"));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json()).isEqualTo(new JsonObject().put("type", "error").put("error", new JsonObject()
                .put("type", "budget_exceeded").put("message", "per-tenant is spent").put("code", "insufficient_quota")));
    }

    @Test
    void aSpentBudgetSaysWhenItsWindowEndsAsRetryAfterOnlyWithinAMinuteAndToGooglesCallersAlways() {
        Duration hour = Duration.ofHours(1);
        Reply openAi = answerWith(Dialects.OPENAI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent", hour));
        Reply google = answerWith(Dialects.GEMINI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent", hour),
                ClientRetryRules.STATUS_ONLY);
        Reply soon = answerWith(Dialects.GEMINI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent",
                Duration.ofMillis(42_500)), ClientRetryRules.STATUS_ONLY);

        assertThat(openAi.headers().get("retry-after")).as("a client that waits out any Retry-After would hang").isNull();
        assertThat(openAi.json().getJsonObject("error").containsKey("details")).isFalse();
        assertThat(google.status()).isEqualTo(429);
        assertThat(google.headers().get("retry-after")).isNull();
        assertThat(retryInfo(google)).as("Gemini CLI stops at a retryDelay beyond five minutes").isEqualTo("3600s");
        assertThat(soon.headers().get("retry-after")).isEqualTo("43");
        assertThat(retryInfo(soon)).isEqualTo("42.500s");
    }

    @Test
    void anOpenBreakerTellsGooglesCallersWhenItReopens() {
        Reply reply = answerWith(Dialects.GEMINI, GatewayException.circuitOpen("all open", Duration.ofSeconds(3)),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(503);
        assertThat(retryInfo(reply)).isEqualTo("3s");
    }

    private static String retryInfo(Reply reply) {
        return reply.json().getJsonObject("error").getJsonArray("details").stream()
                .map(JsonObject.class::cast)
                .filter(detail -> detail.getString("@type").equals("type.googleapis.com/google.rpc.RetryInfo"))
                .map(detail -> detail.getString("retryDelay")).findFirst().orElse(null);
    }

    @Test
    void aTransientRefusalKeepsItsStatusForAClientThatReadsOnlyTheStatus() {
        Reply reply = answerWith(Dialects.OPENAI, GatewayException.circuitOpen("all open", Duration.ofSeconds(3)),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("retry-after")).isEqualTo("3");
    }

    @Test
    void codexAndTheVercelAiSdkAreToldApartFromClientsThatReadShouldRetry() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap().add("originator", "codex_exec")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "ai/7.0.173 ai-sdk-provider-utils/5.0.81 node.js/v20.20.2")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "claude-cli/2.1.332 (external, sdk-cli)").add("x-stainless-lang", "js")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "undici").add("anthropic-version", "2023-06-01")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY); // OpenClaw
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    @Test
    void langChainJsIsToldApartByItsOpenAiUserAgentAndItsAnthropicBrowserAccessHeader() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "langchainjs-openai/1.0.0 ((node/v20.20.2; linux; x64))").add("x-stainless-lang", "js")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "Anthropic/JS 0.122.0").add("x-stainless-lang", "js")
                .add("anthropic-dangerous-direct-browser-access", "true")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        // Claude Code sends the browser-access header too, under its own user agent: it reads x-should-retry.
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "claude-cli/2.1.332 (external, sdk-cli)").add("x-stainless-lang", "js")
                .add("anthropic-dangerous-direct-browser-access", "true")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
        // A browser app on the Anthropic SDK sends its page's origin: it reads x-should-retry.
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "Anthropic/JS 0.122.0").add("anthropic-dangerous-direct-browser-access", "true")
                .add("origin", "https://app.example.com")))
                .isEqualTo(ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    @Test
    void theGoogleGenAiSdksAndGeminiCliReadOnlyTheStatus() {
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "google-genai-sdk/2.3.0 gl-java/17.0.12")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "GeminiCLI/0.61.0 (linux; x64)")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
        assertThat(ClientRetryRules.of(io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("user-agent", "node").add("x-goog-api-client", "google-genai-sdk/1.30.0 gl-node/v22.1.0")))
                .isEqualTo(ClientRetryRules.STATUS_ONLY);
    }

    @ParameterizedTest
    @EnumSource(GatewayError.class)
    void everyGatewayErrorIsWrittenForGeminiCallersWithTheStatusItIsAnsweredWith(GatewayError error) {
        JsonObject body = GatewayErrors.body(Dialects.GEMINI, error, "why").getJsonObject("error");

        assertThat(body.getInteger("code")).isEqualTo(GatewayError.statusOf(error.type()));
        assertThat(body.getString("status")).matches("[A-Z_]+");
        assertThat(body.getString("message")).isEqualTo("why");
        assertThat(body.getJsonArray("details").getJsonObject(0).getString("reason")).isEqualTo(error.type());
    }

    @Test
    void theRefusalsGeminiCallersMeetMostCarryGooglesStatusForThem() {
        assertThat(statusOf(GatewayError.CIRCUIT_OPEN)).isEqualTo("503 UNAVAILABLE");
        assertThat(statusOf(GatewayError.ALL_FALLBACKS_FAILED)).isEqualTo("502 UNAVAILABLE");
        assertThat(statusOf(GatewayError.TIMEOUT)).isEqualTo("504 DEADLINE_EXCEEDED");
        assertThat(statusOf(GatewayError.BUDGET_EXCEEDED)).isEqualTo("429 RESOURCE_EXHAUSTED");
        assertThat(statusOf(GatewayError.INVALID_API_KEY)).isEqualTo("401 UNAUTHENTICATED");
        assertThat(statusOf(GatewayError.MODEL_NOT_FOUND)).isEqualTo("404 NOT_FOUND");
        assertThat(statusOf(GatewayError.INVALID_REQUEST)).isEqualTo("400 INVALID_ARGUMENT");
    }

    private static String statusOf(GatewayError error) {
        JsonObject body = GatewayErrors.body(Dialects.GEMINI, error, "why").getJsonObject("error");
        return body.getInteger("code") + " " + body.getString("status");
    }

    @Test
    void roundsSubSecondWaitUpToOneSecond() {
        assertThat(GatewayErrors.retryAfterSeconds(Duration.ZERO)).isEqualTo("1");
        assertThat(GatewayErrors.retryAfterSeconds(Duration.ofSeconds(300))).isEqualTo("300");
    }
}
