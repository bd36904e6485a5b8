package io.agentfuse.gateway.http;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an error tells a caller about retrying, in the terms its client reads: {@code x-should-retry} and
 * {@code retry-after-ms}, a final refusal's code or a 400 for a client that reads only the status,
 * Google's {@code RetryInfo}, and a {@code Retry-After} only where waiting it out cannot hang the caller.
 */
class GatewayErrorRetryAdviceTest {

    @RegisterExtension
    final ErrorAnswers errors = new ErrorAnswers();

    @Test
    void anOpenBreakerIsWorthRetryingOnlyWhenItReopensWithinTwentySeconds() {
        assertThat(GatewayErrors.shouldRetryCircuitOpen(0)).isTrue();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(20)).isTrue();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(21)).isFalse();
        assertThat(GatewayErrors.shouldRetryCircuitOpen(-1)).isFalse();
    }

    @Test
    void aShortCircuitOpenSaysRetryWithTheWaitInMillisecondsToo() {
        Reply reply = errors.answerWith(Dialects.OPENAI, GatewayException.circuitOpen("all open", Duration.ofMillis(4_200)));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("true");
        assertThat(reply.headers().get("retry-after")).isEqualTo("5");
        assertThat(reply.headers().get("retry-after-ms")).isEqualTo("4200");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("circuit_open");
    }

    @Test
    void aSubagentLimitWithAShortWaitIsWorthRetrying() {
        Reply reply = errors.answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.SUBAGENT_LIMIT, "5 in flight",
                Duration.ofSeconds(1)));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("true");
        assertThat(reply.headers().get("retry-after-ms")).isEqualTo("1000");
    }

    @Test
    void aFinalRefusalCarriesTheCodeLangChainTreatsAsFinal() {
        Reply reply = errors.answerWith(Dialects.RESPONSES, new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "a: 500"));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("code")).isEqualTo("insufficient_quota");
    }

    @Test
    void aFinalRefusalIsA400ForAClientThatReadsOnlyTheStatus() {
        Reply reply = errors.answerWith(Dialects.OPENAI, new GatewayException(GatewayError.TIMEOUT, "every step timed out"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
    }

    @Test
    void aFinalRefusalToAStatusOnlyGeminiCallerSaysTheStatusSentInItsBodyToo() {
        Reply reply = errors.answerWith(Dialects.GEMINI, new GatewayException(GatewayError.TIMEOUT, "every step timed out"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getInteger("code")).isEqualTo(400); // Gemini CLI retries by this code
        assertThat(reply.json().getJsonObject("error").getString("status")).isEqualTo("DEADLINE_EXCEEDED");
    }

    @Test
    void aSpentBudgetKeepsTheContractsFinal429ForAClientThatReadsOnlyTheStatus() {
        Reply reply = errors.answerWith(Dialects.OPENAI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "per-tenant is spent"),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("insufficient_quota");
    }

    @Test
    void aSpentBudgetCarriesTheFinalCodeInTheAnthropicDialectToo() {
        Reply reply = errors.answerWith(Dialects.ANTHROPIC, new GatewayException(GatewayError.BUDGET_EXCEEDED, "per-tenant is spent"));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("x-should-retry")).isEqualTo("false");
        assertThat(reply.json()).isEqualTo(new JsonObject().put("type", "error").put("error", new JsonObject()
                .put("type", "budget_exceeded").put("message", "per-tenant is spent").put("code", "insufficient_quota")));
    }

    @Test
    void aSpentBudgetSaysWhenItsWindowEndsAsRetryAfterOnlyWithinAMinuteAndToGooglesCallersAlways() {
        Duration hour = Duration.ofHours(1);
        Reply openAi = errors.answerWith(Dialects.OPENAI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent", hour));
        Reply google = errors.answerWith(Dialects.GEMINI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent", hour),
                ClientRetryRules.STATUS_ONLY);
        Reply soon = errors.answerWith(Dialects.GEMINI, new GatewayException(GatewayError.BUDGET_EXCEEDED, "spent",
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
        Reply reply = errors.answerWith(Dialects.GEMINI, GatewayException.circuitOpen("all open", Duration.ofSeconds(3)),
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
        Reply reply = errors.answerWith(Dialects.OPENAI, GatewayException.circuitOpen("all open", Duration.ofSeconds(3)),
                ClientRetryRules.STATUS_ONLY);

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.headers().get("retry-after")).isEqualTo("3");
    }
}
