package io.agentfuse.gateway.streams;

import io.agentfuse.gateway.dialect.ContinuationRequest;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static io.agentfuse.gateway.streams.StreamingCaller.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code models.<m>.streamContinuation: true} (docs/streams.md, continuation), over loopback against
 * the mock providers: a text answer whose stream breaks after its first byte (a cut, an idle stream,
 * an in-band error) is continued by the next step of the chain in the same response — the caller
 * gets the first part and the continuation as one answer, with one start event, one finish, the
 * usage of both calls, and a clean end of the body — for each caller dialect ({@link StreamingCaller}),
 * within one dialect and across. A tool call in flight is not continued, nor is a continuation that
 * fails too: then the error event and the aborted body of a stream without continuation. Outcomes
 * only; no durations.
 */
class StreamContinuationTest {

    private static final String CONFIG = """
            server:
              port: 0
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            retry:
              maxAttempts: 1
            models:
              primary-messages: { provider: anthropic, upstreamModel: up-messages, streamIdleTimeout: 1s, fallbacks: [next-messages], streamContinuation: true }
              next-messages: { provider: anthropic, upstreamModel: up-messages-next }
              primary-chat: { provider: openai, upstreamModel: up-chat, streamIdleTimeout: 1s, fallbacks: [next-chat], streamContinuation: true }
              next-chat: { provider: openai, upstreamModel: up-chat-next }
              primary-responses: { provider: openai, upstreamModel: up-responses, streamIdleTimeout: 1s, fallbacks: [next-responses], streamContinuation: true }
              next-responses: { provider: openai, upstreamModel: up-responses-next }
              primary-mixed: { provider: anthropic, upstreamModel: up-mixed, streamIdleTimeout: 1s, fallbacks: [next-mixed], streamContinuation: true }
              next-mixed: { provider: openai, upstreamModel: up-mixed-next }
            """;

    /** Anthropic events: a stream that opens, says "one ", and begins a tool call (then is cut). */
    private static final String TOOL_CALL_IN_FLIGHT = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"up-messages\",\"content\":[],"
            + "\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n"
            + "event: content_block_start\ndata: {\"type\":\"content_block_start\","
            + "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"one \"}}\n\n"
            + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
            + "event: content_block_start\ndata: {\"type\":\"content_block_start\","
            + "\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,"
            + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \\\"Par\"}}\n\n";

    /** The chain: within the caller's dialect, or from an Anthropic model to an OpenAI one. */
    enum Chain { NATIVE, MIXED }

    /** How the first stream breaks after its first piece. */
    enum Fault {
        CUT, STALL, IN_BAND_ERROR;

        MockStep first() {
            MockStep.Builder step = MockStep.builder().chunks("one ", "two ", "four").inputTokens(7);
            return switch (this) {
                case CUT -> step.drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build();
                case STALL -> step.chunkDelayMs(60_000).build(); // past streamIdleTimeout (1 s)
                case IN_BAND_ERROR -> step.streamError(529).streamErrorAfterChunks(1).build();
            };
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (StreamingCaller caller : StreamingCaller.values()) {
            for (Chain chain : Chain.values()) {
                for (Fault fault : Fault.values()) {
                    cases.add(Arguments.of(caller, chain, fault));
                }
            }
        }
        return cases.stream();
    }

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "{0} caller, {1} chain, {2}")
    @MethodSource("cases")
    void givenABrokenTextStreamWhenContinuationIsOnThenTheNextStepFinishesItInTheSameStream(StreamingCaller caller,
                                                                                          Chain chain, Fault fault) {
        harness = GatewayHarness.start(CONFIG);
        String model = chain == Chain.NATIVE ? "primary-" + caller.name().toLowerCase(Locale.ROOT) : "primary-mixed";
        String upstream = "up-" + model.substring("primary-".length());
        harness.mock.scriptForModel(upstream, fault.first());
        harness.mock.scriptForModel(upstream + "-next", MockStep.builder().chunks("two ", "three").inputTokens(20)
                .outputTokens(5).build());

        StreamReply reply = harness.client.stream(caller.path, caller.request(model), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).as("a clean end of the body: %s", reply.data()).isFalse();
        assertThat(caller.text(reply.events())).isEqualTo("one two three");
        assertThat(caller.starts(reply.events())).as("one start event").isEqualTo(1);
        assertThat(caller.finishes(reply.events())).as("one finish").isEqualTo(1);
        assertThat(caller.endsComplete(reply.events())).as(reply.data()).isTrue();
        assertThat(reply.events()).noneMatch(StreamContinuationTest::reportsAnError);
        // The first stream told its input (and Anthropic one output token) before it broke; the continuation all of its own.
        boolean firstTold = chain == Chain.MIXED || caller == StreamingCaller.MESSAGES;
        assertThat(caller.usage(reply.events())).as("the usage of both calls")
                .containsExactly(20 + (firstTold ? 7 : 0), 5 + (firstTold ? 1 : 0));
        // An OpenAI provider speaks Responses to Responses callers, Chat Completions to the others.
        assertContinuationAsked(upstream + "-next",
                chain == Chain.MIXED && caller == StreamingCaller.MESSAGES ? StreamingCaller.CHAT : caller);
    }

    /** The next step was asked once, with the conversation and the text sent, as its provider continues best. */
    private void assertContinuationAsked(String upstream, StreamingCaller providerDialect) {
        List<RecordedRequest> asked = harness.mock.requestsFor(upstream);
        assertThat(asked).hasSize(1);
        JsonObject body = asked.get(0).jsonBody().orElseThrow();
        String conversation = (providerDialect == StreamingCaller.RESPONSES ? body.getJsonArray("input")
                : body.getJsonArray("messages")).encode();
        assertThat(conversation).contains("Count to three").contains("one");
        JsonArray turns = providerDialect == StreamingCaller.RESPONSES ? body.getJsonArray("input") : body.getJsonArray("messages");
        JsonObject last = turns.getJsonObject(turns.size() - 1);
        if (providerDialect == StreamingCaller.MESSAGES) {
            // Anthropic continues a trailing assistant turn (a prefill), which must not end with whitespace.
            assertThat(last.getString("role")).isEqualTo("assistant");
            assertThat(last.encode()).contains("\"one\"").doesNotContain(ContinuationRequest.INSTRUCTION);
        } else {
            assertThat(last.getString("role")).isEqualTo("user");
            assertThat(last.encode()).contains(ContinuationRequest.INSTRUCTION);
            assertThat(turns.getJsonObject(turns.size() - 2).getString("role")).isEqualTo("assistant");
        }
    }

    @Test
    void givenAToolCallInFlightWhenTheStreamBreaksThenItIsNotContinuedButEndsWithTheErrorEvent() {
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("up-messages", MockStep.builder().body(TOOL_CALL_IN_FLIGHT).build());
        harness.mock.scriptForModel("up-messages-next", MockStep.builder().chunks("two ", "three").build());

        StreamReply reply = harness.client.stream(StreamingCaller.MESSAGES.path,
                StreamingCaller.MESSAGES.request("primary-messages"), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.data()).contains("one ").contains("get_weather");
        assertThat(reply.cutOff()).as("the body is aborted").isTrue();
        assertThat(StreamingCaller.MESSAGES.endsWithError(reply.events())).as(reply.data()).isTrue();
        assertThat(harness.requestsFor("up-messages-next")).as("a half-made tool call is not handed on").isZero();
    }

    @ParameterizedTest(name = "{0} caller")
    @EnumSource(StreamingCaller.class)
    void givenAContinuationThatFailsBeforeItsFirstByteThenTheStreamEndsWithTheErrorEventAndAnAbortedBody(StreamingCaller caller) {
        harness = GatewayHarness.start(CONFIG);
        String model = "primary-" + caller.name().toLowerCase(Locale.ROOT);
        String upstream = "up-" + caller.name().toLowerCase(Locale.ROOT);
        harness.mock.scriptForModel(upstream, Fault.CUT.first());
        harness.mock.scriptForModel(upstream + "-next", MockStep.builder().status(500).build());

        StreamReply reply = harness.client.stream(caller.path, caller.request(model), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(caller.text(reply.events())).isEqualTo("one ");
        assertThat(reply.cutOff()).as("the body is aborted").isTrue();
        assertThat(caller.endsWithError(reply.events())).as(reply.data()).isTrue();
        assertThat(harness.requestsFor(upstream + "-next")).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} caller")
    @EnumSource(StreamingCaller.class)
    void givenAContinuationThatBreaksTooThenItIsNotContinuedAgainAndTheStreamEndsWithTheErrorEvent(StreamingCaller caller) {
        harness = GatewayHarness.start(CONFIG);
        String model = "primary-" + caller.name().toLowerCase(Locale.ROOT);
        String upstream = "up-" + caller.name().toLowerCase(Locale.ROOT);
        harness.mock.scriptForModel(upstream, Fault.CUT.first());
        harness.mock.scriptForModel(upstream + "-next", MockStep.builder().chunks("two ", "three")
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).times(2).build());

        StreamReply reply = harness.client.stream(caller.path, caller.request(model), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(caller.text(reply.events())).isEqualTo("one two ");
        assertThat(caller.starts(reply.events())).isEqualTo(1);
        assertThat(reply.cutOff()).as("the body is aborted").isTrue();
        assertThat(caller.endsWithError(reply.events())).as(reply.data()).isTrue();
        assertThat(harness.requestsFor(upstream + "-next")).as("one continuation per answer").isEqualTo(1);
    }

    private static boolean reportsAnError(SseEvent event) {
        if ("error".equals(event.event()) || "response.failed".equals(event.event())) {
            return true;
        }
        return json(event) != null && json(event).getValue("error") != null;
    }
}
