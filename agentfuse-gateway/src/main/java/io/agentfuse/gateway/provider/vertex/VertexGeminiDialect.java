package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.gateway.provider.gemini.GeminiDialect;

/**
 * Gemini models on Vertex AI, for {@code vertex} providers: the Gemini API's bodies, answers, streams
 * and errors ({@link GeminiDialect}) at {@link VertexEndpoint#modelPath}, with an OAuth2 access token
 * ({@code Authorization: Bearer}, from {@link VertexAccessTokens}) instead of an API key.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class VertexGeminiDialect extends VertexHostedDialect {

    /** The one instance. */
    public static final VertexGeminiDialect INSTANCE = new VertexGeminiDialect();

    private VertexGeminiDialect() {
        super(GeminiDialect.INSTANCE);
    }

    @Override
    public String name() {
        return "vertex-gemini";
    }

    /** Only Google-published (Gemini) models. */
    @Override
    public boolean serves(String upstreamModel) {
        return !VertexEndpoint.isAnthropic(upstreamModel);
    }
}
