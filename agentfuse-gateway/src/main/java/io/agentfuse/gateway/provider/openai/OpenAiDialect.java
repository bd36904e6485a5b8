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
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
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

    /** OpenAI types an in-stream error by what ran out ({@code rate_limit_exceeded}) or as its server's. */
    @Override
    public String streamErrorType(Outcome outcome, String providerType) {
        return switch (outcome) {
            case RATE_LIMITED -> "rate_limit_exceeded";
            case CLIENT_ERROR -> "invalid_request_error";
            default -> "server_error";
        };
    }

    /** OpenAI's refusals are all typed {@code invalid_request_error}, a not-found model too. */
    @Override
    public JsonObject refusalBody(int status, String message) {
        return errorBody("invalid_request_error", message, null);
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return errorBody(type, message, type);
    }

    @Override
    public JsonObject errorBody(String type, String message, String code) {
        return new JsonObject().put("error", new JsonObject().put("message", message).put("type", type)
                .put("param", null).put("code", code));
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
