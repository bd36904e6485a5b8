package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.provider.ForwardingDialect;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;

import io.vertx.core.MultiMap;

import java.util.Map;

/**
 * Gemini models on Vertex AI, for {@code vertex} providers: the Gemini API's bodies, answers, streams
 * and errors ({@link GeminiDialect}) at {@link VertexEndpoint#modelPath}, with an OAuth2 access token
 * ({@code Authorization: Bearer}, from {@link VertexAccessTokens}) instead of an API key.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class VertexGeminiDialect extends ForwardingDialect {

    /** The one instance. */
    public static final VertexGeminiDialect INSTANCE = new VertexGeminiDialect();

    private VertexGeminiDialect() {
        super(GeminiDialect.INSTANCE);
    }

    @Override
    public String name() {
        return "vertex-gemini";
    }

    @Override
    public String providerType() {
        return "vertex";
    }

    /** The model's {@code :generateContent} path in the provider's project and location ({@link VertexEndpoint#modelPath}). */
    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return VertexEndpoint.of(provider).modelPath(model, stream);
    }

    /** Only Google-published (Gemini) models. */
    @Override
    public boolean serves(String upstreamModel) {
        return !VertexEndpoint.isAnthropic(upstreamModel);
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

    /** The outcome of a Vertex AI error answer ({@link VertexErrors#outcome}). */
    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return VertexErrors.outcome(status, body);
    }
}
