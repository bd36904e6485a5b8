package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;
import software.amazon.awssdk.eventstream.MessageDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 *       {@code Exception}, the JSON payload as data;</li>
 *   <li>{@code :message-type: error}: named {@code error}, data {@code {"code", "message"}} from its
 *       {@code :error-code} and {@code :error-message} headers.</li>
 * </ul>
 *
 * <p>Not thread-safe; one per stream, fed its chunks in order.
 */
public final class BedrockEventStreamReader {

    private final List<Message> decoded = new ArrayList<>();
    private final MessageDecoder decoder = new MessageDecoder(decoded::add);
    private long fed;
    private long framed;

    /**
     * The events completed by {@code chunk} (none while a frame is incomplete).
     *
     * @throws MalformedAnswerException when the bytes are not an event stream (a bad prelude or checksum)
     */
    public List<SseEvent> feed(Buffer chunk) {
        byte[] bytes = chunk.getBytes();
        fed += bytes.length;
        try {
            decoder.feed(bytes);
        } catch (RuntimeException e) { // the decoder throws IllegalArgumentException or IllegalStateException on bad frames
            throw new MalformedAnswerException("the answer is not an AWS event stream: " + e.getMessage());
        }
        List<SseEvent> events = new ArrayList<>(decoded.size());
        for (Message message : decoded) {
            framed += Message.MESSAGE_OVERHEAD + Message.encodeHeaders(message.getHeaders().entrySet()).length
                    + message.getPayload().length;
            events.add(event(message));
        }
        decoded.clear();
        return events;
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
            return SseEvent.named(header(headers, ":exception-type"), payload);
        }
        if ("error".equals(type)) {
            String code = header(headers, ":error-code");
            String text = header(headers, ":error-message");
            return SseEvent.named("error", new JsonObject().put("code", code).put("message", text).encode());
        }
        return SseEvent.named(header(headers, ":event-type"), payload);
    }

    private static String header(Map<String, HeaderValue> headers, String name) {
        HeaderValue value = headers.get(name);
        return value == null ? "" : value.getString();
    }
}
