package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.provider.ForwardingDialect;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.agentfuse.gateway.provider.gemini.GeminiErrors;
import io.vertx.core.MultiMap;

import java.util.Map;

/**
 * What Vertex AI does alike for every publisher's models: the {@code vertex} provider type, the
 * model's path in the provider's project and location ({@link VertexEndpoint#modelPath}), the
 * service account's OAuth2 access tokens as {@code Authorization: Bearer} ({@link VertexAuth}), and
 * Vertex's error classification ({@link VertexErrors}). Its subclasses say which models they serve
 * and what the hosted wire format needs changed.
 *
 * <p>Stateless and thread-safe when the subclass is.
 */
public abstract class VertexHostedDialect extends ForwardingDialect {

    VertexHostedDialect(Dialect wire) {
        super(wire);
    }

    @Override
    public String providerType() {
        return "vertex";
    }

    /** The model's path in the provider's project and location ({@link VertexEndpoint#modelPath}). */
    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return VertexEndpoint.of(provider).modelPath(model, stream);
    }

    /** The service account's OAuth2 access tokens ({@link VertexAuth}). */
    @Override
    public UpstreamAuth upstreamAuth(ProviderConfig provider) {
        return VertexAuth.of(provider);
    }

    /** @param accessToken an OAuth2 access token of the provider's service account */
    @Override
    public Map<String, String> authHeaders(String accessToken) {
        return accessToken == null || accessToken.isEmpty() ? Map.of() : Map.of("authorization", "Bearer " + accessToken);
    }

    /** Google's for what Vertex itself refuses ({@link VertexErrors#isGoogles}), the hosted model's for the rest. */
    @Override
    public String errorFamily(String body) {
        return VertexErrors.isGoogles(body) ? GeminiDialect.INSTANCE.errorFamily() : errorFamily();
    }

    /** Vertex AI's own 404 for a model ({@link GeminiErrors#refusesModel}), the hosted model's rule for the rest. */
    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        return VertexErrors.isGoogles(body) ? GeminiErrors.refusesModel(status, body) : wire().refusesModel(status, headers, body);
    }

    /** The outcome of a Vertex AI error answer ({@link VertexErrors#outcome}). */
    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return VertexErrors.outcome(status, body);
    }
}
