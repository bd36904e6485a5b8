package io.agentfuse.gateway.http;

import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's own errors as each dialect's caller reads them: the status and type of each error, the
 * body in the caller's dialect (OpenAI, Anthropic, Google's status names), the stream error event, and
 * {@code Retry-After} in whole seconds rounded up.
 */
class GatewayErrorBodiesTest {

    @RegisterExtension
    final ErrorAnswers errors = new ErrorAnswers();

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
        Reply reply = errors.answerWith(Dialects.OPENAI, new GatewayException(GatewayError.MODEL_NOT_FOUND, "model 'gpt-5' is not configured"));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.headers().get("content-type")).isEqualTo("application/json");
        assertThat(reply.json()).isEqualTo(new JsonObject().put("error", new JsonObject()
                .put("message", "model 'gpt-5' is not configured").put("type", "model_not_found")
                .put("param", null).put("code", "model_not_found")));
    }

    @Test
    void writesAnthropicErrorBody() {
        Reply reply = errors.answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.TIMEOUT, "every step timed out"));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json()).isEqualTo(new JsonObject().put("type", "error")
                .put("error", new JsonObject().put("type", "timeout").put("message", "every step timed out")));
    }

    @Test
    void sendsRetryAfterInWholeSecondsRoundedUpWhenCircuitIsOpen() {
        Reply reply = errors.answerWith(Dialects.ANTHROPIC, GatewayException.circuitOpen("all open", Duration.ofMillis(41_200)));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("retry-after")).isEqualTo("42");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
    }

    @Test
    void sendsNoRetryAfterWhenUnknown() {
        Reply reply = errors.answerWith(Dialects.OPENAI, new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "a: 500; b: 529"));

        assertThat(reply.headers().get("retry-after")).isNull();
    }

    @Test
    void answersValidationFailureAsInvalidRequest() {
        Reply reply = errors.answerWith(Dialects.OPENAI, new InvalidRequestException("model", "model is required"));

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
