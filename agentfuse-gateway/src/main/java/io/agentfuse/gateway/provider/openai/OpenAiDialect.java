package io.agentfuse.gateway.provider.openai;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.http.JsonScan;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Map;

/**
 * OpenAI Chat Completions: {@code POST /v1/chat/completions} at the gateway, {@code /chat/completions}
 * below a provider's base URL (which includes the version, {@code https://api.openai.com/v1}),
 * {@code Authorization: Bearer KEY}. Streams end with {@code data: [DONE]}; errors are
 * {@code {"error": {"message", "type", "param": null, "code"}}} with {@code code} equal to {@code type}.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class OpenAiDialect implements Dialect {

    /** The one instance. */
    public static final OpenAiDialect INSTANCE = new OpenAiDialect();

    private OpenAiDialect() {
    }

    @Override
    public String name() {
        return "openai";
    }

    @Override
    public String path() {
        return "/v1/chat/completions";
    }

    @Override
    public String upstreamPath() {
        return "/chat/completions";
    }

    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return path.startsWith("/v1/chat/") || path.startsWith("/chat/");
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return apiKey == null || apiKey.isEmpty() ? Map.of() : Map.of("authorization", "Bearer " + apiKey);
    }

    @Override
    public ChatRequest parseRequest(JsonObject body) {
        return OpenAiRequestParser.parse(body);
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return OpenAiRequestWriter.write(request, model);
    }

    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        body.put("model", upstreamModel);
        if (stream) {
            // The gateway counts a stream's tokens, so it always asks for the usage chunk.
            JsonObject options = body.getValue("stream_options") instanceof JsonObject o ? o.copy() : new JsonObject();
            body.put("stream_options", options.put("include_usage", true));
        }
        return body;
    }

    @Override
    public JsonObject checkAnswer(Buffer body) {
        return OpenAiResponseCodec.check(AnswerShape.object(body));
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return OpenAiResponseCodec.read(body);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return OpenAiResponseCodec.write(response);
    }

    @Override
    public Usage usageIfWellFormed(Buffer body) {
        return OpenAiAnswerScan.usageIfWellFormed(body);
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return OpenAiResponseCodec.usage(responseBody.getValue("usage") instanceof JsonObject usage ? usage : null);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return new OpenAiStreamDecoder();
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return new OpenAiStreamEncoder(includeUsage, clock.epochMillis() / 1000);
    }

    @Override
    public boolean relaysToSameDialect(SseEvent event, boolean clientWantsUsage) {
        if (clientWantsUsage || event.isDone()) {
            return true;
        }
        // Clients that did not ask for usage may not expect a chunk with empty choices. Only an
        // event with an empty array somewhere can be one: the others are relayed without a parse
        // (and without decoding their bytes).
        if (!holdsEmptyArray(event.dataBytes())) {
            return true;
        }
        try {
            JsonObject chunk = new JsonObject(event.data());
            return !(chunk.getValue("choices") instanceof JsonArray choices && choices.isEmpty()
                    && chunk.getValue("usage") instanceof JsonObject);
        } catch (DecodeException e) {
            return true;
        }
    }

    /**
     * Whether {@code json} (UTF-8) has a '[' followed by nothing but JSON white space and a ']'. A
     * multi-byte character never holds either byte; a match inside a string only costs a parse.
     */
    private static boolean holdsEmptyArray(byte[] json) {
        for (int i = 0; i < json.length; i++) {
            if (json[i] == '[') {
                int next = i + 1;
                while (next < json.length && JsonScan.isWhiteSpace(json[next])) {
                    next++;
                }
                if (next < json.length && json[next] == ']') {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public SseEvent endMarker() {
        return SseEvent.DONE;
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        if (lower.contains("overload")) {
            return Outcome.OVERLOADED;
        }
        return lower.contains("rate_limit") || lower.equals("requests") || lower.equals("tokens")
                ? Outcome.RATE_LIMITED : Outcome.SERVER_ERROR;
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return new JsonObject().put("error", new JsonObject().put("message", message).put("type", type)
                .put("param", null).put("code", type));
    }

    @Override
    public SseEvent errorEvent(String type, String message) {
        return SseEvent.data(errorBody(type, message).encode());
    }

    @Override
    public String toString() {
        return name();
    }
}
