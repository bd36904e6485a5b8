package io.agentfuse.mock;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * How one provider dialect writes the answers the {@link MockProvider} generates. Each
 * implementation writes its provider's wire format on its own, without the gateway's dialect
 * code, so that tests of that code against the mock are not circular.
 *
 * <p>Implementations are stateless apart from an id counter, and thread-safe.
 */
interface MockDialect {

    /** A fresh message id in the provider's style. */
    String nextId();

    /** A complete non-streaming success for {@code step}. */
    JsonObject success(MockStep step, String model);

    /**
     * The provider's own 401 body for a request whose {@code headers} carry no API key at all (checked
     * first, before the body is read, as the providers do; {@link ApiKeyCheck}), or {@code null}; none by
     * default.
     */
    default JsonObject missingKey(MultiMap headers) {
        return null;
    }

    /**
     * The provider's own 404 body for a request {@code body} that names a model it does not serve
     * (checked before {@link #refusal(JsonObject, MultiMap)}), or {@code null}; none by default, so that
     * the mock serves any model a test invents.
     */
    default JsonObject unknownModel(JsonObject body) {
        return null;
    }

    /**
     * This dialect's 404 body ({@link #error(int)}) saying {@code problem} as its {@code error.message};
     * {@code null} for no problem. For dialects whose errors nest their message under {@code error}.
     */
    default JsonObject notFound(String problem) {
        if (problem == null) {
            return null;
        }
        JsonObject refused = error(404);
        refused.getJsonObject("error").put("message", problem);
        return refused;
    }

    /**
     * The provider's own 400 body for a request {@code body} it refuses (before any step of the
     * script), or {@code null} when it takes it; none is refused by default.
     */
    default JsonObject refusal(JsonObject body) {
        return null;
    }

    /**
     * As {@link #refusal(JsonObject)}, for a provider whose refusal also depends on the request's
     * {@code headers} (Anthropic's {@code anthropic-beta}); by default the body's refusal.
     */
    default JsonObject refusal(JsonObject body, MultiMap headers) {
        return refusal(body);
    }

    /** An error body for {@code status}, in the provider's own error shape. */
    JsonObject error(int status);

    /**
     * An error body for {@code status} of the provider's error {@code errorType} (a name of the
     * provider's own, {@code null} for its usual one); by default the usual one.
     */
    default JsonObject error(int status, String errorType) {
        return error(status);
    }

    /**
     * The headers that name one answer for the provider's support, fresh for each, as the real APIs send
     * them on every answer, an error's included: OpenAI's {@code x-request-id: req_…}, Azure's
     * {@code apim-request-id} and {@code x-request-id}, Anthropic's {@code request-id: req_…}, Bedrock's
     * {@code x-amzn-RequestId} (a UUID). None by default: the Gemini API and Vertex AI send none.
     */
    default Map<String, String> requestIdHeaders() {
        return Map.of();
    }

    /** A fresh id in the form OpenAI's and Anthropic's request ids take: {@code req_} and 32 hex digits. */
    static String requestId() {
        return "req_" + java.util.UUID.randomUUID().toString().replace("-", "");
    }

    /** Headers an error answer carries besides the body ({@code x-amzn-ErrorType}, {@code retry-after}); none by default. */
    default Map<String, String> errorHeaders(int status, String errorType) {
        return Map.of();
    }

    /** The events of an error inside a streamed success, which end the stream; by default the error body as data. */
    default List<MockEvent> streamError(int status, String errorType, StreamIds ids) {
        return List.of(MockEvent.data(error(status, errorType).encode()));
    }

    /** The content type of a streamed answer; server-sent events by default. */
    default String streamContentType() {
        return "text/event-stream";
    }

    /** The wire form of {@code events}, written together; server-sent events by default. */
    default Buffer frame(List<MockEvent> events) {
        Buffer frame = Buffer.buffer();
        events.forEach(event -> frame.appendString(event.encode()));
        return frame;
    }

    /** The events sent together with the first streamed piece. */
    List<MockEvent> opening(MockStep step, String model, StreamIds ids);

    /** The events carrying one streamed piece of text. */
    List<MockEvent> text(String piece, StreamIds ids);

    /** The events carrying the step's tool calls, after the text. */
    List<MockEvent> toolCalls(MockStep step, StreamIds ids);

    /** The events that end the stream (finish reason, usage, end marker). */
    List<MockEvent> closing(MockStep step, StreamIds ids);

    /**
     * What stays constant over one streamed answer.
     *
     * @param id           the message id
     * @param model        the model name echoed back
     * @param created      creation time, epoch seconds
     * @param includeUsage whether the caller asked for usage in the stream (OpenAI {@code stream_options})
     */
    record StreamIds(String id, String model, long created, boolean includeUsage) {
    }
}
