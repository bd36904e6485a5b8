package io.agentfuse.mock;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A request that the {@link MockProvider} received, as {@code GET /_mock/requests} reports it.
 *
 * <p>An immutable snapshot. {@link #clientDisconnected()} tells whether the caller closed the
 * connection before the answer was complete (at the time of the snapshot) — this is how tests
 * see that a cancelled upstream call really closed its connection.
 *
 * <pre>{@code
 * RecordedRequest first = mock.requests().get(0);
 * assertThat(first.header("x-api-key")).contains("test-key");
 * }</pre>
 *
 * @param method     HTTP method
 * @param path       request path
 * @param headers    request headers, names in lower case (repeated headers keep the last value)
 * @param body       the raw body text
 * @param receivedAt         when the request arrived
 * @param clientDisconnected whether the caller closed the connection before the mock finished answering
 */
public record RecordedRequest(String method, String path, Map<String, String> headers, String body,
                              Instant receivedAt, boolean clientDisconnected) {

    /** How many levels the control API's answer puts around a recorded body. */
    static final int ANSWER_DEPTH = 3;
    /** The deepest body served as JSON: Jackson's limit of 1000 levels, less {@link #ANSWER_DEPTH}. */
    static final int SERVED_DEPTH = 1000 - ANSWER_DEPTH;

    public RecordedRequest {
        headers = Map.copyOf(headers);
    }

    /** The value of header {@code name} (case-insensitive). */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The body as JSON, or empty when it is not a JSON object. */
    public Optional<JsonObject> jsonBody() {
        try {
            Object value = Json.decodeValue(body);
            return value instanceof JsonObject json ? Optional.of(json) : Optional.empty();
        } catch (DecodeException e) {
            return Optional.empty();
        }
    }

    /**
     * The JSON form served by the control API: the body as JSON, or as its text when it is not JSON or
     * nests deeper than {@value #SERVED_DEPTH} levels. The answer holds it {@value #ANSWER_DEPTH} levels down
     * ({@code {"requests": [{"body": …}]}}), and Jackson writes no more than 1000 levels: a deeper body
     * made {@code GET /_mock/requests} answer 500 for as long as the journal kept it.
     */
    public JsonObject toJson() {
        JsonObject json = new JsonObject()
                .put("method", method)
                .put("path", path)
                .put("headers", new JsonObject(Map.copyOf(headers)))
                .put("receivedAt", receivedAt.toString())
                .put("clientDisconnected", clientDisconnected());
        Optional<JsonObject> parsed = jsonBody();
        return parsed.isPresent() && depth(parsed.get(), 1) <= SERVED_DEPTH ? json.put("body", parsed.get()) : json.put("body", body);
    }

    /** How deep {@code value} nests, it being at {@code level}; stops counting past {@value #SERVED_DEPTH}. */
    private static int depth(Object value, int level) {
        int deepest = level;
        if (level > SERVED_DEPTH) {
            return level;
        }
        Iterable<?> children = value instanceof JsonObject object ? object.getMap().values() // decoded: raw maps and lists within
                : value instanceof JsonArray array ? array.getList()
                : value instanceof Map<?, ?> map ? map.values() : value instanceof List<?> list ? list : null;
        if (children == null) {
            return level - 1;
        }
        for (Object child : children) {
            deepest = Math.max(deepest, depth(child, level + 1));
            if (deepest > SERVED_DEPTH) {
                break;
            }
        }
        return deepest;
    }
}
