package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.anthropic.AnthropicDialect;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * Anthropic models on Vertex AI ({@code :rawPredict}, {@code :streamRawPredict}), for {@code vertex}
 * providers: Anthropic Messages bodies, answers and streams ({@link AnthropicDialect}), except that the
 * body names no {@code model} (the path does) and carries {@code anthropic_version:
 * "vertex-2023-10-16"} instead of the {@code anthropic-version} header; {@code anthropic-beta} is still
 * forwarded as a header. Authentication is an OAuth2 access token ({@code Authorization: Bearer}).
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class VertexAnthropicDialect extends VertexHostedDialect {

    /** The one instance. */
    public static final VertexAnthropicDialect INSTANCE = new VertexAnthropicDialect();

    /** The {@code anthropic_version} Vertex AI takes in the body. */
    public static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

    private VertexAnthropicDialect() {
        super(AnthropicDialect.INSTANCE);
    }

    @Override
    public String name() {
        return "vertex-anthropic";
    }

    /** Only Claude (Anthropic-published) models. */
    @Override
    public boolean serves(String upstreamModel) {
        return VertexEndpoint.isAnthropic(upstreamModel);
    }

    /** None: the version goes in the body. */
    @Override
    public Map<String, String> defaultHeaders() {
        return Map.of();
    }

    /** The caller's {@code anthropic-beta} only: the version is Vertex's own. */
    @Override
    public Map<String, String> forwardedHeaders(MultiMap callerHeaders) {
        return AnthropicDialect.betasOf(callerHeaders).map(betas -> Map.of("anthropic-beta", betas)).orElse(Map.of());
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return forVertex(wire().writeRequest(request, model));
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model, long contextWindow) {
        return forVertex(wire().writeRequest(request, model, contextWindow));
    }

    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        return forVertex(wire().sameDialectRequest(body, upstreamModel, stream));
    }

    private static JsonObject forVertex(JsonObject body) {
        body.remove("model");
        return body.put("anthropic_version", ANTHROPIC_VERSION);
    }
}
