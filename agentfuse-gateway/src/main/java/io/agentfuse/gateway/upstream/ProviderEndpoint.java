package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.UpstreamAuth;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to reach one model of a provider: its dialect, base URL, API key, the extra headers
 * it is sent ({@code providers.<name>.headers}), the paths of its complete and streamed calls and
 * its authentication.
 *
 * <p>The request URL is the base URL followed by the dialect's path, which follows each provider's
 * convention for its base URL: OpenAI's base includes the version ({@code https://api.openai.com/v1}
 * + {@code /chat/completions}), Anthropic's does not ({@code https://api.anthropic.com} +
 * {@code /v1/messages}); Bedrock, Gemini and Vertex AI name the model and whether it streams in the
 * path ({@link Dialect#upstreamPath(ProviderConfig, String, boolean)}, {@link #of}). The key is never
 * part of {@link #toString()}.
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
 * @param headers      sent with every call, after the dialect's defaults and the caller's forwarded headers
 *                     (which they replace), before the authentication (which replaces them)
 * @param completePath the path (and query) of a complete call, below the base URL
 * @param streamPath   the path (and query) of a streamed call, below the base URL
 * @param auth         how calls are authenticated (made once per configured provider)
 * @param proxySecrets the login of the egress proxy its calls go through, as sent ({@link UpstreamClient#proxySecrets}):
 *                     secrets as the authentication's are ({@link Redaction}); empty without a proxy login
 */
public record ProviderEndpoint(String name, Dialect dialect, String baseUrl, String apiKey, Map<String, String> headers,
                               String completePath, String streamPath, UpstreamAuth auth, List<String> proxySecrets) {

    public ProviderEndpoint {
        Objects.requireNonNull(name, "name");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        proxySecrets = List.copyOf(proxySecrets);
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(completePath, "completePath");
        Objects.requireNonNull(streamPath, "streamPath");
        Objects.requireNonNull(auth, "auth");
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

    /** A provider of a dialect that names the model in the body, authenticated by its key's fixed headers. */
    public ProviderEndpoint(String name, Dialect dialect, String baseUrl, String apiKey, Map<String, String> headers) {
        this(name, dialect, baseUrl, apiKey, headers, dialect.upstreamPath(), dialect.upstreamPath(),
                UpstreamAuth.fixed(dialect.authHeaders(apiKey), UpstreamAuth.Credential.apiKey(name)), List.of());
    }

    /** A provider without extra headers. */
    public ProviderEndpoint(String name, Dialect dialect, String baseUrl, String apiKey) {
        this(name, dialect, baseUrl, apiKey, Map.of());
    }

    /**
     * The endpoint of {@code provider}'s model {@code upstreamModel} spoken to in {@code dialect},
     * authenticated by {@code auth} (the provider's, {@link Dialect#upstreamAuth}, shared by its models),
     * called through an egress proxy whose login is {@code proxySecrets} ({@link UpstreamClient#proxySecrets}).
     */
    public static ProviderEndpoint of(ProviderConfig provider, Dialect dialect, String upstreamModel, UpstreamAuth auth,
                                      List<String> proxySecrets) {
        return new ProviderEndpoint(provider.name(), dialect, provider.baseUrl().toString(), provider.apiKey(),
                provider.headers(), dialect.upstreamPath(provider, upstreamModel, false),
                dialect.upstreamPath(provider, upstreamModel, true), auth, proxySecrets);
    }

    /** The absolute URL of the complete chat call. */
    public String url() {
        return url(false);
    }

    /** The absolute URL of the chat call, complete or {@code stream}ed. */
    public String url(boolean stream) {
        return baseUrl + (stream ? streamPath : completePath);
    }

    /** Whether a key is configured. */
    public boolean hasApiKey() {
        return apiKey != null && !apiKey.isEmpty();
    }

    @Override
    public String toString() {
        return "ProviderEndpoint[name=" + name + ", dialect=" + dialect + ", baseUrl=" + baseUrl
                + ", apiKey=" + (hasApiKey() ? "***" : "none") + ", headers=" + headers.keySet() + ", auth=" + auth
                + ", proxySecrets=" + proxySecrets.size() + "]";
    }
}
