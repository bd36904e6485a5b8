package io.agentfuse.gateway.provider;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.EventFraming;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A dialect that speaks another one's wire format, for providers that host a model API under their own
 * addresses and authentication (Azure OpenAI hosts OpenAI's; Vertex AI hosts Gemini's and Anthropic's):
 * every method forwards to {@link #wire()}; a subclass overrides what its provider does differently
 * (name, paths, authentication, a field of the body, error classification).
 *
 * <p>Stateless and thread-safe when the subclass is.
 */
public abstract class ForwardingDialect implements Dialect {

    private final Dialect wire;

    /** @param wire the dialect whose bodies, answers and streams this one speaks */
    protected ForwardingDialect(Dialect wire) {
        this.wire = Objects.requireNonNull(wire, "wire");
    }

    /** The dialect whose bodies, answers and streams this one speaks. */
    public Dialect wire() {
        return wire;
    }

    @Override
    public boolean continuesPrefilledAnswer(ChatRequest request) {
        return wire.continuesPrefilledAnswer(request);
    }

    @Override
    public String path() {
        return wire.path();
    }

    @Override
    public String upstreamPath() {
        return wire.upstreamPath();
    }

    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return wire.upstreamPath(provider, model, stream);
    }

    /** A hosted wire format is not a caller's dialect: its callers speak the wire's own. */
    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return false;
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return wire.authHeaders(apiKey);
    }

    @Override
    public Map<String, String> defaultHeaders() {
        return wire.defaultHeaders();
    }

    @Override
    public Map<String, String> forwardedHeaders(MultiMap callerHeaders) {
        return wire.forwardedHeaders(callerHeaders);
    }

    @Override
    public ChatRequest parseRequest(JsonObject body) {
        return wire.parseRequest(body);
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return wire.writeRequest(request, model);
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model, long contextWindow) {
        return wire.writeRequest(request, model, contextWindow);
    }

    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        return wire.sameDialectRequest(body, upstreamModel, stream);
    }

    @Override
    public JsonObject withConversation(JsonObject body, JsonObject rewritten) {
        return wire.withConversation(body, rewritten);
    }

    @Override
    public JsonObject checkAnswer(Buffer body) {
        return wire.checkAnswer(body);
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return wire.parseResponse(body, clock);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return wire.writeResponse(response);
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return wire.usageOf(responseBody);
    }

    @Override
    public Usage usageIfWellFormed(Buffer body) {
        return wire.usageIfWellFormed(body);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return wire.streamDecoder();
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return wire.streamEncoder(includeUsage, clock);
    }

    @Override
    public String streamMediaType() {
        return wire.streamMediaType();
    }

    @Override
    public EventFraming eventFraming(Consumer<SseEvent> sink, int maxEventBytes) {
        return wire.eventFraming(sink, maxEventBytes);
    }

    @Override
    public SseEvent endMarker() {
        return wire.endMarker();
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        return wire.streamErrorOutcome(type);
    }

    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return wire.errorOutcome(status, headers, body);
    }

    @Override
    public boolean refusesCredentials(int status, String body) {
        return wire.refusesCredentials(status, body);
    }

    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        return wire.refusesModel(status, headers, body);
    }

    @Override
    public String errorFamily() {
        return wire.errorFamily();
    }

    @Override
    public String errorFamily(String body) {
        return wire.errorFamily(body);
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return wire.errorBody(type, message);
    }

    @Override
    public SseEvent errorEvent(String type, String message) {
        return wire.errorEvent(type, message);
    }

    @Override
    public String toString() {
        return name();
    }
}
