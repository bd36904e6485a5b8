package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseEventTooLongException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bedrock's binary event stream, framed by AWS's library, read into neutral stream events. */
class BedrockStreamTest {

    private static Buffer frame(String messageType, String typeHeader, String type, JsonObject payload) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(typeHeader, HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString(messageType));
        ByteBuffer bytes = new Message(headers, payload.encode().getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return Buffer.buffer(out);
    }

    private static Buffer event(String type, JsonObject payload) {
        return frame("event", ":event-type", type, payload);
    }

    /** A whole ConverseStream answer: text, a tool call in two input pieces, stop and metadata. */
    private static Buffer answer() {
        return Buffer.buffer()
                .appendBuffer(event("messageStart", new JsonObject().put("role", "assistant")))
                .appendBuffer(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", 0)
                        .put("delta", new JsonObject().put("text", "Hi"))))
                .appendBuffer(event("contentBlockStop", new JsonObject().put("contentBlockIndex", 0)))
                .appendBuffer(event("contentBlockStart", new JsonObject().put("contentBlockIndex", 1)
                        .put("start", new JsonObject().put("toolUse", new JsonObject().put("toolUseId", "tooluse_1").put("name", "f")))))
                .appendBuffer(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", 1)
                        .put("delta", new JsonObject().put("toolUse", new JsonObject().put("input", "{\"a\":")))))
                .appendBuffer(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", 1)
                        .put("delta", new JsonObject().put("toolUse", new JsonObject().put("input", "1}")))))
                .appendBuffer(event("contentBlockStop", new JsonObject().put("contentBlockIndex", 1)))
                .appendBuffer(event("messageStop", new JsonObject().put("stopReason", "tool_use")))
                .appendBuffer(event("metadata", new JsonObject().put("usage", new JsonObject().put("inputTokens", 9)
                        .put("outputTokens", 4).put("totalTokens", 13))));
    }

    private static List<StreamEvent> decodeInPiecesOf(Buffer bytes, int size, BedrockEventStreamReader reader,
                                                      StreamDecoder decoder) {
        List<StreamEvent> events = new ArrayList<>();
        for (int start = 0; start < bytes.length(); start += size) {
            for (SseEvent event : reader.read(bytes.slice(start, Math.min(bytes.length(), start + size)))) {
                events.addAll(decoder.decode(event));
            }
        }
        return events;
    }

    @Test
    void aStreamCutIntoArbitraryPiecesIsReadFrameByFrameIntoNeutralEvents() {
        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();

        List<StreamEvent> events = decodeInPiecesOf(answer(), 7, reader, decoder);

        assertThat(events).containsExactly(new StreamEvent.Start("", "", Usage.ZERO), new StreamEvent.TextDelta("Hi"),
                new StreamEvent.ToolCallStart(0, "tooluse_1", "f"), new StreamEvent.ToolCallDelta(0, "{\"a\":"),
                new StreamEvent.ToolCallDelta(0, "1}"), new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(9, 4)));
        assertThat(reader.atFrameBoundary()).isTrue();
        assertThat(decoder.finished()).isTrue();
        assertThat(decoder.end()).isEmpty();
    }

    @Test
    void aFrameDeclaringMoreThanTheEventBoundFailsAsItsLengthArrivesNotWhenItsBytesHave() {
        Buffer big = event("contentBlockDelta", new JsonObject().put("contentBlockIndex", 0)
                .put("delta", new JsonObject().put("text", "x".repeat(4096))));
        Buffer small = event("messageStart", new JsonObject().put("role", "assistant"));
        BedrockEventStreamReader reader = new BedrockEventStreamReader(event -> { }, 1024);
        reader.feed(small.slice(0, 3));
        reader.feed(small.slice(3, small.length()));

        // AWS's decoder makes room for a frame's whole declared length (up to 24 MB) from its first bytes.
        assertThatThrownBy(() -> reader.feed(big.slice(0, 4))).isInstanceOf(SseEventTooLongException.class);
    }

    @Test
    void framesWithinTheBoundAreReadFedOneByteAtATime() {
        BedrockEventStreamReader reader = new BedrockEventStreamReader(event -> { }, 300);
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();

        List<StreamEvent> events = decodeInPiecesOf(answer(), 1, reader, decoder);

        assertThat(events).hasSize(6);
        assertThat(reader.atFrameBoundary()).isTrue();
    }

    @Test
    void anExceptionFrameIsTheProvidersErrorNamedByTheException() {
        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        Buffer bytes = event("messageStart", new JsonObject().put("role", "assistant"))
                .appendBuffer(frame("exception", ":exception-type", "throttlingException",
                        new JsonObject().put("message", "Too many requests, please wait before trying again.")));

        List<StreamEvent> events = decodeInPiecesOf(bytes, 1000, reader, decoder);

        assertThat(events.get(1)).isEqualTo(new StreamEvent.Error("ThrottlingException",
                "Too many requests, please wait before trying again."));
    }

    @Test
    void anExceptionFrameWithoutItsTypeIsTheProvidersServerErrorSayingTheTypeWasMissing() {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("exception"));
        ByteBuffer untyped = new Message(headers, "{\"message\":\"The system encountered an unexpected error.\"}"
                .getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] frame = new byte[untyped.remaining()];
        untyped.get(frame);
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();

        List<StreamEvent> events = decodeInPiecesOf(event("messageStart", new JsonObject().put("role", "assistant"))
                .appendBytes(frame), 1000, new BedrockEventStreamReader(), decoder);

        assertThat(events.get(1)).isInstanceOfSatisfying(StreamEvent.Error.class, error -> {
            assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.PROVIDER);
            assertThat(BedrockDialect.INSTANCE.streamErrorOutcome(error.type())).isEqualTo(Outcome.SERVER_ERROR);
            assertThat(error.message()).contains(":exception-type", "The system encountered an unexpected error.");
        });
        assertThat(decoder.finished()).isTrue();
    }

    @Test
    void aStreamCutInsideAFrameIsNotAtAFrameBoundaryAndOneEndedBeforeMessageStopWasCut() {
        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        Buffer bytes = answer();

        decodeInPiecesOf(bytes.slice(0, bytes.length() / 2), 1000, reader, decoder);

        assertThat(reader.atFrameBoundary()).isFalse();
        assertThat(decoder.end()).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.CUT));
    }

    @Test
    void bytesThatAreNotAnEventStreamAreMalformed() {
        Buffer corrupted = answer();
        corrupted.setByte(20, (byte) (corrupted.getByte(20) ^ 0xFF)); // inside the first frame's headers: its CRC fails

        assertThatThrownBy(() -> new BedrockEventStreamReader().read(corrupted)).isInstanceOf(MalformedAnswerException.class)
                .hasMessageContaining("not an AWS event stream");
        assertThatThrownBy(() -> new BedrockEventStreamReader().read(Buffer.buffer("data: {\"not\":\"aws\"}\n\n")))
                .isInstanceOf(MalformedAnswerException.class);
    }

    @Test
    void aFrameWhoseTypeHeaderIsNotAStringIsAMalformedAnswer() {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromInteger(3));
        headers.put(":message-type", HeaderValue.fromString("event"));
        ByteBuffer bytes = new Message(headers, "{}".getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] odd = new byte[bytes.remaining()];
        bytes.get(odd);
        Buffer start = event("messageStart", new JsonObject().put("role", "assistant"));
        BedrockEventStreamReader reader = new BedrockEventStreamReader(event -> { }, Integer.MAX_VALUE);

        // What the upstream client catches: anything else escapes its handler and the stream is left to its idle limit.
        assertThatThrownBy(() -> reader.feed(Buffer.buffer().appendBuffer(start).appendBytes(odd)))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining(":event-type");
    }

    @Test
    void neutralEventsEncodedAsConverseStreamEventsDecodeBackToThem() {
        StreamEncoder encoder = BedrockDialect.INSTANCE.streamEncoder(false, new ManualClock());
        List<StreamEvent> neutral = List.of(new StreamEvent.Start("", "", Usage.ZERO), new StreamEvent.TextDelta("Hi"),
                new StreamEvent.ToolCallStart(0, "toolu_1", "f"), new StreamEvent.ToolCallDelta(0, "{}"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(3, 2)));
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        List<StreamEvent> decoded = new ArrayList<>();

        neutral.forEach(event -> encoder.encode(event).forEach(sse -> decoded.addAll(decoder.decode(sse))));

        assertThat(decoded).isEqualTo(neutral);
    }
}
