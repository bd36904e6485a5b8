package io.agentfuse.config;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the {@code providers:} section: an upstream LLM API.
 *
 * <p>{@code type} may be left out when the entry is named after its type ({@code anthropic},
 * {@code openai}); {@code baseUrl} defaults to the type's public endpoint
 * ({@link ConfigDefaults#baseUrl(Type)}); {@code apiKey} defaults to empty (no key is sent);
 * {@code headers} (default none) are sent with every call to the provider, after the dialect's
 * defaults and the caller's forwarded headers, which they replace; the authentication headers
 * replace them in turn. Immutable and thread-safe; {@link #toString()} never shows the key or the
 * headers' values.
 *
 * <pre>{@code
 * providers:
 *   anthropic: { type: anthropic, baseUrl: "https://api.anthropic.com", apiKey: "${ANTHROPIC_API_KEY:-}" }
 *   internal:
 *     type: openai
 *     baseUrl: https://llm.internal/v1
 *     headers: { x-team: agents, x-gateway-route: "${ROUTE:-default}" }
 * }</pre>
 *
 * @param name            the key under {@code providers}
 * @param type            which wire protocol the provider speaks
 * @param baseUrl         absolute {@code http} or {@code https} URL the API paths are appended to
 * @param apiKey          the credential, after {@code ${ENV}} interpolation; may be empty
 * @param headers         extra headers sent upstream, by name, in the order written
 * @param storedResponses {@code storedResponses}, default false: whether Responses requests that
 *                        refer to state the provider stores by id ({@code previous_response_id},
 *                        {@code conversation}, {@code item_reference}) are forwarded to it. That
 *                        state is stored under this provider's key, which every caller of the
 *                        gateway shares, so any caller could continue any stored conversation whose
 *                        id it knows: turn it on only where the callers may see each other's work.
 */
public record ProviderConfig(String name, Type type, URI baseUrl, String apiKey, Map<String, String> headers,
                             boolean storedResponses) {

    public ProviderConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(apiKey, "apiKey");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** A provider with extra headers that forwards no reference to stored Responses state (the default). */
    public ProviderConfig(String name, Type type, URI baseUrl, String apiKey, Map<String, String> headers) {
        this(name, type, baseUrl, apiKey, headers, false);
    }

    /** A provider without extra headers that forwards no reference to stored Responses state. */
    public ProviderConfig(String name, Type type, URI baseUrl, String apiKey) {
        this(name, type, baseUrl, apiKey, Map.of());
    }

    /** Whether an API key was configured. */
    public boolean hasApiKey() {
        return !apiKey.isEmpty();
    }

    @Override
    public String toString() {
        return "ProviderConfig[name=" + name + ", type=" + type + ", baseUrl=" + baseUrl
                + ", apiKey=" + (hasApiKey() ? "***" : "") + ", headers=" + headers.keySet()
                + ", storedResponses=" + storedResponses + "]";
    }

    /** The wire protocol of a provider; written in YAML in lower case. */
    public enum Type {
        /** The Anthropic Messages API ({@code /v1/messages}). */
        ANTHROPIC,
        /** The OpenAI Chat Completions API ({@code /chat/completions}). */
        OPENAI
    }
}
