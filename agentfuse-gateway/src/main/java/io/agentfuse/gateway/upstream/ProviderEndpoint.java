package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.Dialect;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to reach one model provider: its dialect, base URL, API key and the extra headers
 * it is sent ({@code providers.<name>.headers}).
 *
 * <p>The request URL is the base URL followed by the dialect's {@link Dialect#upstreamPath()},
 * which follows each provider's convention for its base URL: OpenAI's base includes the version
 * ({@code https://api.openai.com/v1} + {@code /chat/completions}), Anthropic's does not
 * ({@code https://api.anthropic.com} + {@code /v1/messages}). The key is never part of
 * {@link #toString()}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * ProviderEndpoint anthropic = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC,
 *         "https://api.anthropic.com", System.getenv("ANTHROPIC_API_KEY"));
 * }</pre>
 *
 * @param name    the provider's name in the configuration
 * @param dialect the API it speaks
 * @param baseUrl an absolute {@code http} or {@code https} URL; a trailing slash is dropped
 * @param apiKey  the API key, or {@code null}/empty to send none (local providers)
 * @param headers sent with every call, after the dialect's defaults and the caller's forwarded headers
 *                (which they replace), before the authentication (which replaces them)
 */
public record ProviderEndpoint(String name, Dialect dialect, String baseUrl, String apiKey, Map<String, String> headers) {

    public ProviderEndpoint {
        Objects.requireNonNull(name, "name");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(baseUrl, "baseUrl");
        String scheme;
        try {
            scheme = URI.create(baseUrl).getScheme();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("baseUrl must be an absolute http(s) URL, but was " + baseUrl, e);
        }
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("baseUrl must be an absolute http(s) URL, but was " + baseUrl);
        }
        baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    /** A provider without extra headers. */
    public ProviderEndpoint(String name, Dialect dialect, String baseUrl, String apiKey) {
        this(name, dialect, baseUrl, apiKey, Map.of());
    }

    /** The absolute URL of the chat endpoint. */
    public String url() {
        return baseUrl + dialect.upstreamPath();
    }

    /** Whether a key is configured. */
    public boolean hasApiKey() {
        return apiKey != null && !apiKey.isEmpty();
    }

    @Override
    public String toString() {
        return "ProviderEndpoint[name=" + name + ", dialect=" + dialect + ", baseUrl=" + baseUrl
                + ", apiKey=" + (hasApiKey() ? "***" : "none") + ", headers=" + headers.keySet() + "]";
    }
}
