package io.agentfuse.mock;

import io.agentfuse.mock.MockStep.MockToolCall;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes Amazon Bedrock Converse answers: {@code {"output": {"message": ...}, "stopReason", "usage",
 * "metrics"}}; ConverseStream answers as AWS's binary event stream
 * ({@code application/vnd.amazon.eventstream}, framed by the AWS SDK's event-stream library), events
 * {@code messageStart}, {@code contentBlockStart}/{@code Delta}/{@code Stop}, {@code messageStop} and
 * {@code metadata}, each with {@code :event-type}, {@code :content-type} and {@code :message-type}
 * headers; errors as {@code {"message"}} with the exception's name in {@code x-amzn-ErrorType}
 * ({@code ThrottlingException} 429, {@code ModelNotReadyException}, {@code ServiceUnavailableException}
 * 503, …), in a stream as a frame of {@code :message-type: exception}.
 *
 * <p>A {@link MockEvent} whose name ends in {@code Exception} is framed as an exception. Thread-safe.
 */
final class BedrockMockDialect implements MockDialect {

    /** The content type of a ConverseStream answer. */
    static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private final AtomicLong ids = new AtomicLong();

    @Override
    public String nextId() {
        return "mock-bedrock-" + ids.incrementAndGet();
    }

    @Override
    public Map<String, String> requestIdHeaders() {
        return Map.of("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        JsonArray content = new JsonArray();
        if (step.toolCalls().isEmpty() || !step.text().isEmpty()) {
            content.add(new JsonObject().put("text", step.text()));
        }
        step.toolCalls().forEach(call -> content.add(new JsonObject().put("toolUse", new JsonObject()
                .put("toolUseId", call.id()).put("name", call.name()).put("input", call.arguments()))));
        return new JsonObject()
                .put("output", new JsonObject().put("message", new JsonObject().put("role", "assistant").put("content", content)))
                .put("stopReason", stopReason(step))
                .put("usage", usage(step))
                .put("metrics", new JsonObject().put("latencyMs", 0));
    }

    @Override
    public JsonObject error(int status) {
        return error(status, null);
    }

    @Override
    public JsonObject error(int status, String errorType) {
        String exception = errorType != null ? errorType : exceptionFor(status);
        return new JsonObject().put("message", BedrockErrors.message(exception));
    }

    @Override
    public Map<String, String> errorHeaders(int status, String errorType) {
        return BedrockErrors.headers(errorType != null ? errorType : exceptionFor(status));
    }

    @Override
    public List<MockEvent> streamError(int status, String errorType, StreamIds ids) {
        String exception = errorType != null ? errorType : switch (status) {
            case 400 -> "ValidationException";
            case 429 -> "ThrottlingException";
            case 503 -> "ServiceUnavailableException";
            case 500 -> "InternalServerException";
            default -> "ModelStreamErrorException";
        };
        JsonObject payload = new JsonObject().put("message", BedrockErrors.message(exception));
        if ("ModelStreamErrorException".equals(exception)) {
            payload.put("originalStatusCode", status).put("originalMessage", "the model failed while streaming");
        }
        String eventType = Character.toLowerCase(exception.charAt(0)) + exception.substring(1);
        return List.of(MockEvent.named(eventType, payload.encode()));
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        return List.of(event("messageStart", new JsonObject().put("role", "assistant")));
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        if (piece.isEmpty()) {
            return List.of();
        }
        return List.of(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", 0)
                .put("delta", new JsonObject().put("text", piece))));
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        boolean hasText = hasText(step);
        if (hasText && !step.toolCalls().isEmpty()) {
            events.add(blockStop(0));
        }
        for (int i = 0; i < step.toolCalls().size(); i++) {
            MockToolCall call = step.toolCalls().get(i);
            int index = i + (hasText ? 1 : 0);
            events.add(event("contentBlockStart", new JsonObject().put("contentBlockIndex", index)
                    .put("start", new JsonObject().put("toolUse", new JsonObject()
                            .put("toolUseId", call.id()).put("name", call.name())))));
            // Real streams split the input at arbitrary places; two pieces exercise the re-assembly.
            String input = call.arguments().encode();
            int half = input.length() / 2;
            for (String part : new String[] {input.substring(0, half), input.substring(half)}) {
                events.add(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", index)
                        .put("delta", new JsonObject().put("toolUse", new JsonObject().put("input", part)))));
            }
            events.add(blockStop(index));
        }
        return events;
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        if (step.toolCalls().isEmpty() && hasText(step)) {
            events.add(blockStop(0));
        }
        events.add(event("messageStop", new JsonObject().put("stopReason", stopReason(step))));
        events.add(event("metadata", new JsonObject().put("usage", usage(step))
                .put("metrics", new JsonObject().put("latencyMs", 0))));
        return events;
    }

    @Override
    public String streamContentType() {
        return EVENT_STREAM;
    }

    @Override
    public Buffer frame(List<MockEvent> events) {
        Buffer frame = Buffer.buffer();
        for (MockEvent event : events) {
            Map<String, HeaderValue> headers = new LinkedHashMap<>();
            if (event.event().endsWith("Exception")) {
                headers.put(":exception-type", HeaderValue.fromString(event.event()));
                headers.put(":content-type", HeaderValue.fromString("application/json"));
                headers.put(":message-type", HeaderValue.fromString("exception"));
            } else {
                headers.put(":event-type", HeaderValue.fromString(event.event()));
                headers.put(":content-type", HeaderValue.fromString("application/json"));
                headers.put(":message-type", HeaderValue.fromString("event"));
            }
            ByteBuffer bytes = new Message(headers, event.data().getBytes(StandardCharsets.UTF_8)).toByteBuffer();
            byte[] out = new byte[bytes.remaining()];
            bytes.get(out);
            frame.appendBytes(out);
        }
        return frame;
    }

    /** The exception Bedrock answers {@code status} with. */
    static String exceptionFor(int status) {
        return switch (status) {
            case 400 -> "ValidationException";
            case 403 -> "AccessDeniedException";
            case 404 -> "ResourceNotFoundException";
            case 408 -> "ModelTimeoutException";
            case 424 -> "ModelErrorException";
            case 429 -> "ThrottlingException";
            case 503 -> "ServiceUnavailableException";
            default -> status >= 500 ? "InternalServerException" : "ValidationException";
        };
    }

    private static boolean hasText(MockStep step) {
        return !String.join("", step.chunks()).isEmpty();
    }

    private static JsonObject usage(MockStep step) {
        int output = step.effectiveOutputTokens();
        JsonObject usage = new JsonObject().put("inputTokens", step.inputTokens() - step.cacheReadTokens()
                        - step.cacheWriteTokens()).put("outputTokens", output).put("totalTokens", step.inputTokens() + output);
        // Bedrock, like Anthropic, counts the cache's reads and writes beside inputTokens, not within it.
        return step.cacheReadTokens() == 0 && step.cacheWriteTokens() == 0 ? usage
                : usage.put("cacheReadInputTokens", step.cacheReadTokens()).put("cacheWriteInputTokens", step.cacheWriteTokens());
    }

    private static MockEvent blockStop(int index) {
        return event("contentBlockStop", new JsonObject().put("contentBlockIndex", index));
    }

    private static MockEvent event(String type, JsonObject payload) {
        // Bedrock pads its events with a "p" field so that their sizes do not reveal the text.
        return MockEvent.named(type, payload.put("p", "abcdefghijklmnop").encode());
    }

    private static String stopReason(MockStep step) {
        return switch (step.effectiveFinishReason().toLowerCase(Locale.ROOT)) {
            case "length" -> "max_tokens";
            case "tool_calls" -> "tool_use";
            case "stop_sequence" -> "stop_sequence";
            case "content_filter" -> "content_filtered";
            default -> "end_turn";
        };
    }
}
