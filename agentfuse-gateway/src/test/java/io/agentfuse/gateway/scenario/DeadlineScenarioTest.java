package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One request, one deadline (docs/design.md §13): {@code models.<m>.deadline}, shortened by
 * {@code x-agentfuse-deadline}, bounds the chain claude-sonnet-4 → claude-haiku-4. The assertions
 * are about outcome and order (who was called, who was cut), never about how long anything took.
 */
class DeadlineScenarioTest {

    /** A call that would answer long after any deadline of these tests. */
    private static final MockStep HANGS = MockStep.builder().delayMs(60_000).build();

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private void start(String sonnetSettings) {
        harness = GatewayHarness.start(GatewayHarness.configWithPrimary(sonnetSettings));
    }

    @Test
    void givenAFirstStepThatHangsPastItsTimeout_whenTheSlowSecondFitsTheDeadline_thenTheSecondAnswers() {
        start("deadline: 30s\n    timeout: 300ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", HANGS);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().delayMs(200).text("slow but in time").build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.body()).contains("slow but in time");
        Eventually.holds(harness.vertx, () -> harness.mock.requestsFor("claude-sonnet-4-5").get(0).clientDisconnected());
    }

    @Test
    void givenAFirstStepThatHangs_whenTheDeadlinePasses_thenTheRequestFailsWithATimeoutAndTheFallbackIsNotStarted() {
        start("deadline: 500ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", HANGS);

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("deadline");
        assertThat(harness.requestsFor("claude-haiku-4-5")).as("no fallback starts after the deadline").isZero();
        assertThat(harness.requestsFor("gpt-4o-mini")).isZero();
        Eventually.holds(harness.vertx, () -> harness.mock.requestsFor("claude-sonnet-4-5").get(0).clientDisconnected());
    }

    @Test
    void givenAStreamWhoseFirstStepNeverStarts_whenTheDeadlinePasses_thenItFailsBeforeAnyByteWithATimeout() {
        start("deadline: 500ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().firstChunkDelayMs(60_000).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(504);
        assertThat(harness.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void givenAFallbackWhoseRecentMedianExceedsTheTimeLeft_whenTheFirstStepFails_thenItIsPassedOverForOneThatFits() {
        start("deadline: 30s\n    timeout: 100ms");
        // haiku's recent calls took at least 2 s each: its median is known (five samples) and long.
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().delayMs(2_000).times(5).build());
        for (int i = 0; i < 5; i++) {
            assertThat(harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false)).status()).isEqualTo(200);
        }
        harness.mock.scriptForModel("claude-sonnet-4-5", HANGS);

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", "1s"));

        // gpt-4o-mini has no recent latency: any time left is enough for it.
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("claude-sonnet-4=TIMEOUT; claude-haiku-4=deadline");
        assertThat(harness.requestsFor("claude-haiku-4-5")).as("the doomed fallback was not started").isEqualTo(5);
    }

    @Test
    void givenALongModelDeadline_whenTheCallerSendsAShorterOne_thenTheCallersDeadlineEndsTheRequest() {
        start("deadline: 10m");
        harness.mock.scriptForModel("claude-sonnet-4-5", HANGS);

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", "400ms"));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("timeout");
        assertThat(harness.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void givenAShortModelDeadline_whenTheCallerAsksForALongerOne_thenTheModelDeadlineStillHolds() {
        start("deadline: 400ms");
        harness.mock.scriptForModel("claude-sonnet-4-5", HANGS);

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", "10m"));

        assertThat(reply.status()).isEqualTo(504);
        assertThat(harness.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void givenADeadlineHeaderThatIsNotADuration_thenTheRequestIsRefusedWithA400NamingTheHeader() {
        start("deadline: 30s");

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", "soon"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("x-agentfuse-deadline", "'soon'");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenADeadlineHeaderOfZero_thenTheRequestIsRefused() {
        start("deadline: 30s");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", "0s"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("x-agentfuse-deadline");
    }

    @ParameterizedTest(name = "x-agentfuse-deadline: {0}")
    @ValueSource(strings = {"100000d", "876001h", "36501d"})
    void givenADeadlineHeaderLongerThanAnyDeadlineCanBe_thenItShortensNothingAndTheRequestIsServed(String value) {
        start("timeout: 5s");

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-agentfuse-deadline", value));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getString("type")).isEqualTo("message");
    }

    @Test
    void givenAHealthyModelNobodyCalledLately_whenOneCallerKeepsCuttingItWithAShortDeadline_thenItsBreakerStaysClosedForEveryoneElse() {
        // breakers stay open for 30 s here, so that an opened one would still be open for the patient caller
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 30s"));
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().delayMs(1_000).text("in a second").times(4).build());

        for (int i = 0; i < 3; i++) {
            Reply cut = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                    Map.of("x-agentfuse-deadline", "300ms"));
            assertThat(cut.status()).isEqualTo(504);
        }
        Reply patient = harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        // the default breaker opens after 3 timeouts in a row: the caller's 300 ms said nothing about the model
        assertThat(patient.status()).isEqualTo(200);
        assertThat(patient.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        assertThat(patient.body()).contains("in a second");
    }
}
