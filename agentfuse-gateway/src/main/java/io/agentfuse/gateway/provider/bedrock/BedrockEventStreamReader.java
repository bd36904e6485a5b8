package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.sse.EventFraming;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import software.amazon.awssdk.eventstream.HeaderType;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;
import software.amazon.awssdk.eventstream.MessageDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the frames of an AWS binary event stream ({@code application/vnd.amazon.eventstream}, what
 * Bedrock's ConverseStream answers) with the AWS SDK's own event-stream decoder (preludes, headers and
 * both CRCs checked there), and gives each frame as an {@link SseEvent}, so that a
 * {@link BedrockStreamDecoder} reads Bedrock's stream as the gateway reads every other:
 *
 * <ul>
 *   <li>{@code :message-type: event}: named by its {@code :event-type} ({@code messageStart},
 *       {@code contentBlockDelta}, ...), the JSON payload as data;</li>
 *   <li>{@code :message-type: exception}: named by its {@code :exception-type}
 *       ({@code throttlingException}, {@code modelStreamErrorException}, ...), whose names all end in
 *       {@code Exception}, or {@value #UNTYPED_EXCEPTION} when that header is missing, the JSON
 *       payload as data;</li>
 *   <li>{@code :message-type: error}: named {@code error}, data {@code {"code", "message"}} from its
 *       {@code :error-code} and {@code :error-message} headers.</li>
 * </ul>
 *
 * <p>As an {@link EventFraming} (the upstream client's reading of a ConverseStream answer) it hands
 * each event to its sink, holds at most {@code maxEventBytes} of an unfinished frame (a frame that
 * declares more fails as its length arrives, before AWS's decoder makes room for it), and fails a
 * stream that ends inside a frame as a malformed answer.
 *
 * <p>Not thread-safe; one per stream, fed its chunks in order.
 */
public final class BedrockEventStreamReader implements EventFraming {

    /** The name of an exception frame without {@code :exception-type}: its message type. */
    public static final String UNTYPED_EXCEPTION = "exception";

    private final List<Message> decoded = new ArrayList<>();
    private final MessageDecoder decoder = new MessageDecoder(decoded::add);
    private final Consumer<SseEvent> sink;
    private final int maxEventBytes;
    private long fed;
    private long framed;
    /** Where the frame being fed begins in the stream, and the bytes of its declared length read so far. */
    private long frameStart;
    private int lengthBytes;
    private long declaredLength;

    /** A reader whose events are taken from {@link #read}. */
    public BedrockEventStreamReader() {
        this(event -> { }, Integer.MAX_VALUE);
    }

    /** A framing that hands each event to {@code sink} and holds at most {@code maxEventBytes} of an unfinished frame. */
    public BedrockEventStreamReader(Consumer<SseEvent> sink, int maxEventBytes) {
        this.sink = sink;
        this.maxEventBytes = maxEventBytes;
    }

    /**
     * Hands the events completed by {@code chunk} to the sink.
     *
     * @throws MalformedAnswerException when the bytes are not an event stream (a bad prelude or checksum)
     * @throws io.agentfuse.gateway.sse.SseEventTooLongException when an unfinished frame holds more than the bound
     */
    @Override
    public void feed(Buffer chunk) {
        read(chunk).forEach(sink);
        if (fed - framed > maxEventBytes) {
            throw EventFraming.tooLong(fed - framed, maxEventBytes);
        }
    }

    /**
     * The stream's end: a stream cut inside a frame is a malformed answer.
     *
     * @throws MalformedAnswerException when the bytes fed so far end inside a frame
     */
    @Override
    public void end() {
        if (!atFrameBoundary()) {
            throw new MalformedAnswerException("the AWS event stream ended inside a frame (" + (fed - framed)
                    + " bytes of it)");
        }
    }

    /**
     * The events completed by {@code chunk} (none while a frame is incomplete).
     *
     * @throws MalformedAnswerException when the bytes are not an event stream (a bad prelude or checksum),
     *         or a frame's type header is not a string
     * @throws io.agentfuse.gateway.sse.SseEventTooLongException when a frame declares more than the bound
     */
    public List<SseEvent> read(Buffer chunk) {
        byte[] bytes = chunk.getBytes();
        boundDeclaredLengths(bytes, fed);
        fed += bytes.length;
        try {
            decoder.feed(bytes);
        } catch (RuntimeException e) { // the decoder throws IllegalArgumentException or IllegalStateException on bad frames
            throw new MalformedAnswerException("the answer is not an AWS event stream: " + e.getMessage());
        }
        List<SseEvent> events = new ArrayList<>(decoded.size());
        try {
            for (Message message : decoded) {
                framed += Message.MESSAGE_OVERHEAD + Message.encodeHeaders(message.getHeaders().entrySet()).length
                        + message.getPayload().length;
                events.add(event(message));
            }
        } finally {
            decoded.clear();
        }
        return events;
    }

    /**
     * Reads the total length that each frame begun in {@code bytes} (at {@code offset} in the stream)
     * declares in its first four bytes, before the AWS decoder sees them: it makes room for a frame's
     * whole declared length, up to 24 MB, as soon as it has the frame's first 15 bytes.
     *
     * @throws io.agentfuse.gateway.sse.SseEventTooLongException when a frame declares more than the bound
     */
    private void boundDeclaredLengths(byte[] bytes, long offset) {
        long end = offset + bytes.length;
        while (frameStart + lengthBytes < end) {
            if (lengthBytes == Integer.BYTES) {
                frameStart += Math.max(declaredLength, Message.MESSAGE_OVERHEAD); // a shorter one the decoder refuses
                lengthBytes = 0;
                declaredLength = 0;
                continue;
            }
            declaredLength = declaredLength << 8 | bytes[(int) (frameStart + lengthBytes - offset)] & 0xFF;
            if (++lengthBytes == Integer.BYTES && declaredLength > maxEventBytes) {
                throw EventFraming.tooLong(declaredLength, maxEventBytes);
            }
        }
    }

    /** Whether the bytes fed so far end with a whole frame (a stream cut inside a frame does not). */
    public boolean atFrameBoundary() {
        return fed == framed;
    }

    private static SseEvent event(Message message) {
        Map<String, HeaderValue> headers = message.getHeaders();
        String payload = new String(message.getPayload(), StandardCharsets.UTF_8);
        String type = header(headers, ":message-type");
        if ("exception".equals(type)) {
            String exception = header(headers, ":exception-type");
            return SseEvent.named(exception.isEmpty() ? UNTYPED_EXCEPTION : exception, payload);
        }
        if ("error".equals(type)) {
            String code = header(headers, ":error-code");
            String text = header(headers, ":error-message");
            return SseEvent.named("error", new JsonObject().put("code", code).put("message", text).encode());
        }
        return SseEvent.named(header(headers, ":event-type"), payload);
    }

    /**
     * The string header {@code name} ({@code ""} when absent).
     *
     * @throws MalformedAnswerException when it holds another type (AWS's decoder reads any of its ten)
     */
    private static String header(Map<String, HeaderValue> headers, String name) {
        HeaderValue value = headers.get(name);
        if (value == null) {
            return "";
        }
        if (value.getType() != HeaderType.STRING) {
            throw new MalformedAnswerException("an AWS event stream frame whose " + name + " header is "
                    + value.getType() + ", not a string");
        }
        return value.getString();
    }
}
