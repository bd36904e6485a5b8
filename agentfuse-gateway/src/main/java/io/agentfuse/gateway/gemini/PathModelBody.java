package io.agentfuse.gateway.gemini;

import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;

/**
 * A Gemini body with what its path says added as its last fields: {@code "model"} and
 * {@code "stream"} ({@link io.agentfuse.gateway.provider.gemini.GeminiDialect#MODEL_FIELD},
 * {@link io.agentfuse.gateway.provider.gemini.GeminiDialect#STREAM_FIELD}), which the Gemini dialect
 * reads like any dialect reads its body's model. Added last so that they win over a field of the
 * same name the caller sent (the last of a repeated key wins), and added to the bytes rather than to
 * a parsed tree, so that the pipeline parses the body once, as for every other dialect. A body that
 * does not end like a JSON object is left as it is: the pipeline refuses it with the reason.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * Buffer body = PathModelBody.of(Buffer.buffer("{\"contents\":[]}"), "gemini-2.5-pro", true);
 * // {"contents":[],"model":"gemini-2.5-pro","stream":true}
 * }</pre>
 */
final class PathModelBody {

    private PathModelBody() {
    }

    /** {@code body} with {@code model} and {@code stream} added, or {@code body} itself if it does not end with {@code }}. */
    static Buffer of(Buffer body, String model, boolean stream) {
        int close = lastNonSpace(body, body.length() - 1);
        if (close < 0 || body.getByte(close) != '}') {
            return body;
        }
        int before = lastNonSpace(body, close - 1);
        boolean empty = before >= 0 && body.getByte(before) == '{';
        String fields = (empty ? "" : ",") + Json.encode(GeminiDialect.MODEL_FIELD) + ":" + Json.encode(model) + ","
                + Json.encode(GeminiDialect.STREAM_FIELD) + ":" + stream + "}";
        return Buffer.buffer(close + fields.length() + 8).appendBuffer(body, 0, close).appendString(fields);
    }

    private static int lastNonSpace(Buffer body, int from) {
        int at = from;
        while (at >= 0 && isJsonSpace(body.getByte(at))) {
            at--;
        }
        return at;
    }

    private static boolean isJsonSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }
}
