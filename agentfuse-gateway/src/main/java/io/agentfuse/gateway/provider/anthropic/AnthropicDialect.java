package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ProviderErrorFields;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Anthropic Messages: {@code POST /v1/messages} at the gateway and below a provider's base URL
 * (which has no version, {@code https://api.anthropic.com}), {@code x-api-key: KEY} and
 * {@code anthropic-version} — {@value #DEFAULT_VERSION} unless the caller sent its own, which is
 * forwarded together with {@code anthropic-beta}. Streams end with {@code message_stop}; errors are
 * {@code {"type": "error", "error": {"type", "message"}}}, in a stream as {@code event: error}.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class AnthropicDialect implements Dialect {

    /** The one instance. */
    public static final AnthropicDialect INSTANCE = new AnthropicDialect();

    /** The {@code anthropic-version} sent when the caller sent none. */
    public static final String DEFAULT_VERSION = "2023-06-01";

    private static final String VERSION = "anthropic-version";
    private static final String BETA = "anthropic-beta";
    private static final SseEvent MESSAGE_STOP = SseEvent.named("message_stop", "{\"type\":\"message_stop\"}");

    private AnthropicDialect() {
    }

    @Override
    public String name() {
        return "anthropic";
    }

    @Override
    public String path() {
        return "/v1/messages";
    }

    @Override
    public String upstreamPath() {
        return "/v1/messages";
    }

    /**
     * Anthropic's 404 {@code not_found_error} whose message names the model ({@code "model: claude-x"}):
     * a retired or misspelt model, not a path the gateway got wrong.
     */
    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        if (status != 404) {
            return false;
        }
        ProviderErrorFields error = ProviderErrorFields.of(body);
        return "not_found_error".equals(error.type()) && error.message() != null && error.message().startsWith("model:");
    }

    /** Messages continues a trailing assistant message, except with extended thinking, which refuses one. */
    @Override
    public boolean continuesPrefilledAnswer(ChatRequest request) {
        Object thinking = request.received().getValue("thinking");
        return !(thinking instanceof JsonObject settings) || "disabled".equals(settings.getString("type"));
    }

    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return path.startsWith("/v1/messages") || path.startsWith("/messages") || headers.contains(VERSION)
                || headers.contains("x-api-key");
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return apiKey == null || apiKey.isEmpty() ? Map.of() : Map.of("x-api-key", apiKey);
    }

    @Override
    public Map<String, String> defaultHeaders() {
        return Map.of(VERSION, DEFAULT_VERSION);
    }

    @Override
    public Map<String, String> forwardedHeaders(MultiMap callerHeaders) {
        Map<String, String> forwarded = new HashMap<>(2);
        String version = callerHeaders.get(VERSION);
        if (version != null && !version.isBlank()) {
            forwarded.put(VERSION, version);
        }
        betasOf(callerHeaders).ifPresent(betas -> forwarded.put(BETA, betas));
        return forwarded;
    }

    /**
     * The caller's {@code anthropic-beta} features, every one of them: a client may send the header
     * more than once, and the API reads one comma-separated list ({@code a,b}); empty when none.
     */
    public static Optional<String> betasOf(MultiMap callerHeaders) {
        List<String> betas = callerHeaders.getAll(BETA).stream().filter(value -> !value.isBlank()).map(String::trim).toList();
        return betas.isEmpty() ? Optional.empty() : Optional.of(String.join(",", betas));
    }

    @Override
    public ChatRequest parseRequest(JsonObject body) {
        return AnthropicRequestParser.parse(body);
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return AnthropicRequestWriter.write(request, model);
    }

    /** The body for {@code model}, its images and document pages held to the limit of its window. */
    @Override
    public JsonObject writeRequest(ChatRequest request, String model, long contextWindow) {
        return AnthropicRequestWriter.write(request, model, contextWindow);
    }

    /** The caller's body for {@code upstreamModel}, fitted to the thinking rule of a tool-use turn ({@link ThinkingRequirement}). */
    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        return ThinkingRequirement.fit(body.put("model", upstreamModel));
    }

    @Override
    public JsonObject checkAnswer(Buffer body) {
        return AnthropicResponseCodec.check(AnswerShape.object(body));
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return AnthropicResponseCodec.read(body, clock.epochMillis() / 1000);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return AnthropicResponseCodec.write(response);
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return AnthropicResponseCodec.usage(responseBody.getValue("usage") instanceof JsonObject usage ? usage : null);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return new AnthropicStreamDecoder();
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return new AnthropicStreamEncoder();
    }

    @Override
    public SseEvent endMarker() {
        return MESSAGE_STOP;
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        if (lower.contains("overload")) {
            return Outcome.OVERLOADED;
        }
        return lower.contains("rate_limit") ? Outcome.RATE_LIMITED : Outcome.SERVER_ERROR;
    }

    @Override
    public String streamErrorType(Outcome outcome, String providerType) {
        return switch (outcome) {
            case OVERLOADED -> "overloaded_error";
            case RATE_LIMITED -> "rate_limit_error";
            case TIMEOUT -> "timeout_error";
            case CLIENT_ERROR -> "invalid_request_error";
            default -> "api_error";
        };
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return new JsonObject().put("type", "error").put("error", new JsonObject().put("type", type).put("message", message));
    }

    @Override
    public SseEvent errorEvent(String type, String message) {
        return SseEvent.named("error", errorBody(type, message).encode());
    }

    @Override
    public String toString() {
        return name();
    }
}
