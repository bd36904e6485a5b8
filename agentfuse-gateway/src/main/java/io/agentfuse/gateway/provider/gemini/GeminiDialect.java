package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;

/**
 * The Gemini API: {@code POST /v1beta/models/{model}:generateContent}, {@code :streamGenerateContent?alt=sse}
 * and {@code :countTokens} below a provider's base URL ({@code https://generativelanguage.googleapis.com}),
 * {@code x-goog-api-key: KEY}. The model and whether to stream are in the path, not the body
 * ({@link #upstreamPath(String, boolean)}); a stream is SSE of whole responses and ends with the chunk
 * that carries the finish reason (Gemini has no end marker); errors are Google's
 * ({@link GeminiErrors}). The same bodies serve Gemini models on Vertex AI.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class GeminiDialect implements Dialect {

    /** The one instance. */
    public static final GeminiDialect INSTANCE = new GeminiDialect();

    /** The path prefix of the Gemini API's model methods, at the gateway and below a provider's base URL. */
    public static final String MODELS_PATH = "/v1beta/models";

    /** The body field that carries the model of a Gemini endpoint's path to {@link #parseRequest(JsonObject)}. */
    public static final String MODEL_FIELD = "model";
    /** The body field that carries {@code :streamGenerateContent} of a Gemini endpoint's path to {@link #parseRequest(JsonObject)}. */
    public static final String STREAM_FIELD = "stream";

    /**
     * A stand-in for the end marker Gemini does not have: never written, because a Gemini stream is
     * finished by its last chunk ({@link GeminiStreamDecoder}), so nothing is ever owed at its end.
     */
    private static final SseEvent NO_END_MARKER = SseEvent.data("{\"candidates\":[]}");

    private GeminiDialect() {
    }

    @Override
    public String name() {
        return "gemini";
    }

    /** The prefix of the Gemini paths at the gateway; the full path names the model and the method. */
    @Override
    public String path() {
        return MODELS_PATH;
    }

    /** The prefix of the upstream paths; {@link #upstreamPath(String, boolean)} gives the full one. */
    @Override
    public String upstreamPath() {
        return MODELS_PATH;
    }

    /** The path of {@code model}'s generate method below a provider's base URL, with {@code ?alt=sse} for a stream. */
    public String upstreamPath(String model, boolean stream) {
        return MODELS_PATH + "/" + model + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
    }

    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return upstreamPath(model, stream);
    }

    /** The path of {@code model}'s token counting method below a provider's base URL. */
    public String countTokensPath(String model) {
        return MODELS_PATH + "/" + model + ":countTokens";
    }

    /**
     * A caller of the Gemini API: a path under {@code /v1beta/}, a model method under {@code /v1/models/}
     * ({@code /v1/models/gemini-2.5-pro:generateContent}, the SDKs' {@code apiVersion: v1}), or Google's key header.
     */
    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return path.startsWith("/v1beta/") || path.startsWith("/v1/models/") && path.indexOf(':') > 0
                || headers.contains("x-goog-api-key");
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return apiKey == null || apiKey.isEmpty() ? Map.of() : Map.of("x-goog-api-key", apiKey);
    }

    /**
     * Parses a body whose {@code model} field names the model ({@code "models/gemini-2.5-pro"} or
     * {@code "gemini-2.5-pro"}) and whose {@code stream} field, if {@code true}, asks for a stream: the
     * gateway's Gemini endpoint adds both from the path
     * ({@code /v1beta/models/{model}:streamGenerateContent}), since a Gemini body has neither.
     * {@link #parseRequest(JsonObject, String, boolean)} takes both as arguments.
     */
    @Override
    public ChatRequest parseRequest(JsonObject body) {
        if (!(body.getValue(MODEL_FIELD) instanceof String model) || model.isBlank()) {
            throw new InvalidRequestException(MODEL_FIELD, "model is required (a Gemini request names it in its path)");
        }
        boolean stream = Boolean.TRUE.equals(body.getValue(STREAM_FIELD));
        return parseRequest(body, model.startsWith("models/") ? model.substring(7) : model, stream);
    }

    /** Parses a body sent to {@code /v1beta/models/{model}:generateContent} or {@code :streamGenerateContent}. */
    public ChatRequest parseRequest(JsonObject body, String model, boolean stream) {
        return GeminiRequestParser.parse(body, model, stream);
    }

    /** The body for a Gemini provider; {@code model} goes in the path ({@link #upstreamPath(String, boolean)}). */
    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return GeminiRequestWriter.write(request, model);
    }

    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        body.remove(MODEL_FIELD); // the path names the upstream model, and whether to stream
        body.remove(STREAM_FIELD);
        return body;
    }

    @Override
    public JsonObject withConversation(JsonObject body, JsonObject rewritten) {
        body.put("contents", rewritten.getValue("contents"));
        if (rewritten.containsKey("systemInstruction")) {
            body.put("systemInstruction", rewritten.getValue("systemInstruction"));
        } else {
            body.remove("systemInstruction");
        }
        return body;
    }

    @Override
    public JsonObject checkAnswer(Buffer body) {
        return GeminiResponseCodec.checkAnswer(AnswerShape.object(body));
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return GeminiResponseCodec.read(body, clock.epochMillis() / 1000);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return GeminiResponseCodec.write(response);
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return GeminiResponseCodec.usage(responseBody.getValue("usageMetadata") instanceof JsonObject usage ? usage : null);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return new GeminiStreamDecoder();
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return new GeminiStreamEncoder();
    }

    @Override
    public SseEvent endMarker() {
        return NO_END_MARKER;
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        return GeminiErrors.streamErrorOutcome(type);
    }

    /** The outcome of an error answer of a Gemini provider, by its Google status ({@link GeminiErrors#outcome}). */
    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return GeminiErrors.outcome(status, body);
    }

    /** Google's 404 {@code NOT_FOUND} for a model ({@link GeminiErrors#refusesModel}). */
    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        return GeminiErrors.refusesModel(status, body);
    }

    /** 401, 403, and Gemini's 400 {@code API_KEY_INVALID} ({@link GeminiErrors#isAuthFailure}). */
    @Override
    public boolean refusesCredentials(int status, String body) {
        return GeminiErrors.isAuthFailure(status, body);
    }

    /** Google's status for the outcome: {@code UNAVAILABLE} for an overload, {@code RESOURCE_EXHAUSTED} for a rate limit. */
    @Override
    public String streamErrorType(Outcome outcome, String providerType) {
        return switch (outcome) {
            case OVERLOADED -> "UNAVAILABLE";
            case RATE_LIMITED -> "RESOURCE_EXHAUSTED";
            case TIMEOUT -> "DEADLINE_EXCEEDED";
            case CLIENT_ERROR -> "INVALID_ARGUMENT";
            default -> "INTERNAL";
        };
    }

    /** Google's status of the HTTP status ({@code INVALID_ARGUMENT}, {@code NOT_FOUND}, ...), its code that status. */
    @Override
    public JsonObject refusalBody(int status, String message) {
        return GeminiErrors.errorBody(GeminiErrors.statusOfCode(status), message);
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return GeminiErrors.errorBody(type, message);
    }

    @Override
    public void addRetryDelay(JsonObject body, Duration wait) {
        GeminiErrors.addRetryInfo(body, wait);
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
