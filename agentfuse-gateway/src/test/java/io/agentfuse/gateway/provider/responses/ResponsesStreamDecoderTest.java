package io.agentfuse.gateway.provider.responses;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.anthropic.AnthropicStreamDecoder;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResponsesStreamDecoderTest {

    private final ResponsesStreamDecoder decoder = new ResponsesStreamDecoder();

    private List<StreamEvent> decode(List<SseEvent> events) {
        List<StreamEvent> out = new ArrayList<>();
        events.forEach(event -> out.addAll(decoder.decode(event)));
        return out;
    }

    private static SseEvent event(String type, JsonObject fields) {
        return SseEvent.named(type, new JsonObject().put("type", type).put("sequence_number", 0).mergeIn(fields).encode());
    }

    private static JsonObject response(String status) {
        return new JsonObject().put("id", "resp_1").put("object", "response").put("status", status)
                .put("model", "gpt-4.1-mini").put("output", new JsonArray());
    }

    private static SseEvent created() {
        return event("response.created", new JsonObject().put("response", response("in_progress")));
    }

    private static SseEvent functionCallAdded(String itemId, String callId) {
        return event("response.output_item.added", new JsonObject().put("output_index", 0).put("item", new JsonObject()
                .put("type", "function_call").put("id", itemId).put("call_id", callId).put("name", "get_weather")
                .put("arguments", "")));
    }

    private static SseEvent completed(long input, long output) {
        return event("response.completed", new JsonObject().put("response", response("completed")
                .put("usage", new JsonObject().put("input_tokens", input).put("output_tokens", output))));
    }

    @Test
    void decodesWhatTheEncoderWrites() {
        List<StreamEvent> neutral = List.of(new StreamEvent.Start("resp_1", "gpt-4.1", Usage.ZERO),
                new StreamEvent.TextDelta("Checking."), new StreamEvent.ToolCallStart(0, "call_1", "get_weather"),
                new StreamEvent.ToolCallDelta(0, "{\"city\":"), new StreamEvent.ToolCallDelta(0, "\"Paris\"}"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(9, 20)));
        ResponsesStreamEncoder encoder = new ResponsesStreamEncoder(null, 1);
        List<SseEvent> wire = new ArrayList<>();
        neutral.forEach(event -> wire.addAll(encoder.encode(event)));

        List<StreamEvent> decoded = decode(wire);

        assertThat(decoded).containsExactlyElementsOf(neutral);
        assertThat(decoder.finished()).isTrue();
        assertThat(decoder.usage()).isEqualTo(Usage.of(9, 20));
        assertThat(decoder.end()).isEmpty();
    }

    @Test
    void carriesAnAnthropicStreamThroughTheResponsesEncoderUnchanged() {
        List<SseEvent> anthropic = List.of(
                anthropicEvent("message_start", new JsonObject().put("message", new JsonObject().put("id", "msg_1")
                        .put("model", "claude-haiku-4-5").put("usage", new JsonObject().put("input_tokens", 7)))),
                anthropicEvent("content_block_start", new JsonObject().put("index", 0)
                        .put("content_block", new JsonObject().put("type", "text").put("text", ""))),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 0)
                        .put("delta", new JsonObject().put("type", "text_delta").put("text", "Bonjour"))),
                anthropicEvent("content_block_stop", new JsonObject().put("index", 0)),
                anthropicEvent("message_delta", new JsonObject().put("delta", new JsonObject().put("stop_reason", "end_turn"))
                        .put("usage", new JsonObject().put("output_tokens", 3))),
                anthropicEvent("message_stop", new JsonObject()));
        AnthropicStreamDecoder upstream = new AnthropicStreamDecoder();
        ResponsesStreamEncoder encoder = new ResponsesStreamEncoder(null, 1);
        List<SseEvent> wire = new ArrayList<>();
        anthropic.forEach(event -> upstream.decode(event).forEach(neutral -> wire.addAll(encoder.encode(neutral))));

        List<StreamEvent> decoded = decode(wire);

        assertThat(decoded).containsExactly(new StreamEvent.Start("resp_msg_1", "claude-haiku-4-5", Usage.ZERO),
                new StreamEvent.TextDelta("Bonjour"), new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(7, 3)));
    }

    private static SseEvent anthropicEvent(String type, JsonObject data) {
        return SseEvent.named(type, new JsonObject().put("type", type).mergeIn(data).encode());
    }

    @Test
    void readsRefusalsAsText() {
        List<StreamEvent> decoded = decode(List.of(created(),
                event("response.refusal.delta", new JsonObject().put("item_id", "msg_1").put("delta", "I can't"))));

        assertThat(decoded).contains(new StreamEvent.TextDelta("I can't"));
    }

    @Test
    void countsArgumentsSentOnlyInTheDoneEvent() {
        List<StreamEvent> decoded = decode(List.of(created(), functionCallAdded("fc_1", "call_1"),
                event("response.function_call_arguments.done", new JsonObject().put("item_id", "fc_1")
                        .put("output_index", 0).put("arguments", "{\"city\":\"Paris\"}")),
                completed(1, 2)));

        assertThat(decoded).containsSubsequence(new StreamEvent.ToolCallStart(0, "call_1", "get_weather"),
                new StreamEvent.ToolCallDelta(0, "{\"city\":\"Paris\"}"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(1, 2)));
    }

    @Test
    void doesNotRepeatArgumentsThatWereStreamed() {
        List<StreamEvent> decoded = decode(List.of(created(), functionCallAdded("fc_1", "call_1"),
                event("response.function_call_arguments.delta", new JsonObject().put("item_id", "fc_1").put("delta", "{}")),
                event("response.function_call_arguments.done", new JsonObject().put("item_id", "fc_1").put("arguments", "{}")),
                event("response.output_item.done", new JsonObject().put("item", new JsonObject().put("type", "function_call")
                        .put("id", "fc_1").put("call_id", "call_1").put("name", "get_weather").put("arguments", "{}")))));

        assertThat(decoded.stream().filter(StreamEvent.ToolCallDelta.class::isInstance)).hasSize(1);
        assertThat(decoded.stream().filter(StreamEvent.ToolCallStart.class::isInstance)).hasSize(1);
    }

    @Test
    void anIncompleteResponseFinishesWithItsReason() {
        JsonObject cut = response("incomplete").put("incomplete_details", new JsonObject().put("reason", "content_filter"));

        List<StreamEvent> decoded = decode(List.of(created(), event("response.incomplete", new JsonObject().put("response", cut))));

        assertThat(decoded.get(decoded.size() - 1)).isEqualTo(new StreamEvent.Finish(FinishReason.CONTENT_FILTER, null, Usage.ZERO));
        assertThat(decoder.finished()).isTrue();
    }

    @Test
    void aFailedResponseIsAnErrorWithTheProvidersCode() {
        JsonObject failed = response("failed").put("error", new JsonObject().put("code", "rate_limit_exceeded")
                .put("message", "slow down"));

        List<StreamEvent> decoded = decode(List.of(created(), event("response.failed", new JsonObject().put("response", failed))));

        assertThat(decoded.get(decoded.size() - 1)).isEqualTo(new StreamEvent.Error("rate_limit_exceeded", "slow down"));
        assertThat(decoder.finished()).isTrue();
        assertThat(decoder.end()).isEmpty();
    }

    @Test
    void anErrorEventIsAnError() {
        List<StreamEvent> decoded = decode(List.of(created(), event("error", new JsonObject().put("code", null)
                .put("message", "The server had an error").put("param", null))));

        assertThat(decoded).containsExactly(new StreamEvent.Start("resp_1", "gpt-4.1-mini", Usage.ZERO),
                new StreamEvent.Error("server_error", "The server had an error"));
    }

    @Test
    void readsTheNestedErrorThatOpenAiSends() {
        SseEvent openAiError = SseEvent.named("error", new JsonObject().put("type", "error").put("sequence_number", 2)
                .put("error", new JsonObject().put("code", "unknown-error").put("message", "Foobar").put("param", null))
                .encode());

        List<StreamEvent> decoded = decode(List.of(created(), openAiError));

        assertThat(decoded.get(decoded.size() - 1)).isEqualTo(new StreamEvent.Error("unknown-error", "Foobar"));
    }

    /**
     * An in-stream error in each shape it comes in — the documented {@code event: error} with the
     * fields flat, the live API's with them nested under {@code error}, and the data-only
     * {@code {"error": {...}}} of the Chat Completions that OpenAI-compatible servers send — is the
     * provider's error, for {@code decode} (another dialect's caller, the answer's opening) and
     * {@code observe} (a Responses caller) alike: else a rate limit after the first byte is relayed as
     * an unknown event and the stream then reported cut.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"documented", "nested", "data-only"})
    void givenEachErrorShapeWhenDecodedOrObservedThenItIsTheProvidersError(String shape) {
        JsonObject fields = new JsonObject().put("code", "rate_limit_exceeded").put("message", "Rate limit reached")
                .put("param", null);
        SseEvent error = switch (shape) {
            case "documented" -> event("error", fields);
            case "nested" -> event("error", new JsonObject().put("error", fields.put("type", "tokens")));
            default -> SseEvent.data(new JsonObject().put("error", fields.put("type", "requests")).encode());
        };
        StreamEvent.Error expected = new StreamEvent.Error("rate_limit_exceeded", "Rate limit reached");

        ResponsesStreamDecoder decoding = new ResponsesStreamDecoder();
        decoding.decode(created());
        ResponsesStreamDecoder observing = new ResponsesStreamDecoder();
        observing.observe(created());

        assertThat(decoding.decode(error)).containsExactly(expected);
        assertThat(observing.observe(error)).containsExactly(expected);
        assertThat(decoding.finished()).isTrue();
        assertThat(observing.finished()).isTrue();
        assertThat(Dialects.RESPONSES.streamErrorOutcome(expected.type())).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void knowsTheSequenceNumberThatAnAddedErrorEventMustCarry() {
        assertThat(decoder.nextSequenceNumber()).isZero();
        decode(List.of(SseEvent.named("response.created", new JsonObject().put("type", "response.created")
                        .put("sequence_number", 0).put("response", response("in_progress")).encode()),
                SseEvent.named("response.in_progress", new JsonObject().put("type", "response.in_progress")
                        .put("sequence_number", 1).put("response", response("in_progress")).encode())));

        assertThat(decoder.nextSequenceNumber()).isEqualTo(2);
    }

    @Test
    void aRelayedStreamCutShortEndsWithANumberedErrorThenResponseFailed() {
        decode(List.of(SseEvent.named("response.created", new JsonObject().put("type", "response.created")
                        .put("sequence_number", 0).put("response", response("in_progress")).encode()),
                SseEvent.named("response.in_progress", new JsonObject().put("type", "response.in_progress")
                        .put("sequence_number", 1).put("response", response("in_progress")).encode())));

        List<SseEvent> closing = decoder.failureAfterRelay("shutting_down", "the gateway is shutting down");

        assertThat(closing).extracting(SseEvent::event).containsExactly("error", "response.failed");
        assertThat(new JsonObject(closing.get(0).data()).getLong("sequence_number")).isEqualTo(2);
        JsonObject failed = new JsonObject(closing.get(1).data());
        assertThat(failed.getLong("sequence_number")).isEqualTo(3);
        assertThat(failed.getJsonObject("response").getString("status")).isEqualTo("failed");
        assertThat(failed.getJsonObject("response").getString("id"))
                .isEqualTo("resp_1");
        assertThat(failed.getJsonObject("response").getJsonObject("error").getString("code")).isEqualTo("shutting_down");
    }

    @Test
    void theProvidersOwnErrorRelayedIsFollowedByResponseFailedNumberedNextToIt() {
        StreamTranslator relay = StreamTranslator.between(Dialects.RESPONSES, Dialects.RESPONSES, false, Clock.system());
        List<SseEvent> out = new ArrayList<>();
        for (SseEvent event : List.of(
                SseEvent.named("response.created", new JsonObject().put("type", "response.created")
                        .put("sequence_number", 0).put("response", response("in_progress")).encode()),
                SseEvent.named("response.in_progress", new JsonObject().put("type", "response.in_progress")
                        .put("sequence_number", 1).put("response", response("in_progress")).encode()),
                SseEvent.named("error", new JsonObject().put("type", "error").put("sequence_number", 2)
                        .put("code", "server_error").put("message", "The server had an error").encode()))) {
            out.addAll(relay.translate(event));
        }
        out.addAll(relay.end());

        assertThat(out).extracting(SseEvent::event).containsExactly("response.created", "response.in_progress", "error", "response.failed");
        assertThat(out).extracting(event -> new JsonObject(event.data()).getLong("sequence_number"))
                .as("a client reads the numbers as a count: no gap").containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void anEventThatIsNotJsonFailsTheStream() {
        List<StreamEvent> decoded = decode(List.of(created(), SseEvent.named("response.output_text.delta", "{\"type\":")));

        assertThat(decoded.get(decoded.size() - 1))
                .isEqualTo(StreamEvent.Error.malformed("upstream sent a stream event that is not JSON"));
        assertThat(decode(List.of(completed(1, 1)))).isEmpty();
    }

    @Test
    void anEventWithAFieldOfTheWrongTypeFailsTheStreamNamingIt() {
        List<StreamEvent> decoded = decode(List.of(created(),
                event("response.output_text.delta", new JsonObject().put("item_id", "msg_1").put("delta", 42))));

        StreamEvent.Error error = (StreamEvent.Error) decoded.get(decoded.size() - 1);
        assertThat(error.message()).isEqualTo("upstream sent a malformed response.output_text.delta event: "
                + "delta must be a string, but was 42");
    }

    @Test
    void argumentsForAnItemThatWasNeverAddedFailTheStream() {
        List<StreamEvent> decoded = decode(List.of(created(),
                event("response.function_call_arguments.delta", new JsonObject().put("item_id", "fc_9").put("delta", "{"))));

        assertThat(((StreamEvent.Error) decoded.get(decoded.size() - 1)).message())
                .contains("item_id names no function_call item");
    }

    @Test
    void aStreamThatEndsBeforeCompletionEndsWithAnError() {
        decode(List.of(created(), event("response.output_text.delta", new JsonObject().put("item_id", "m").put("delta", "Hel"))));

        assertThat(decoder.finished()).isFalse();
        assertThat(decoder.end()).containsExactly(
                StreamEvent.Error.cut("upstream stream ended before response.completed"));
        assertThat(decoder.finished()).isTrue();
    }

    @Test
    void showsReasoningAndSkipsOtherEvents() {
        List<StreamEvent> decoded = decode(List.of(created(),
                event("response.reasoning_summary_text.delta", new JsonObject().put("delta", "thinking")),
                event("response.web_search_call.searching", new JsonObject()), completed(3, 4)));

        assertThat(decoded).containsExactly(new StreamEvent.Start("resp_1", "gpt-4.1-mini", Usage.ZERO),
                StreamEvent.Reasoning.SHOWN, new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(3, 4)));
    }

    @Test
    void aFinalCountPastTheLargestLongIsReadAsTheLargest() {
        SseEvent huge = SseEvent.named("response.completed", completed(7, 3).data().replace("\"input_tokens\":7",
                "\"input_tokens\":1e30"));

        List<StreamEvent> events = decode(List.of(created(), huge));

        assertThat(events).noneMatch(StreamEvent.Error.class::isInstance);
        assertThat(decoder.usage()).isEqualTo(Usage.of(Long.MAX_VALUE, 3));
    }
}
