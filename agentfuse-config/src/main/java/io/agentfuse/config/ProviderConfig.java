package io.agentfuse.config;

import java.net.URI;
import java.util.Objects;

/**
 * One entry of the {@code providers:} section: an upstream LLM API.
 *
 * <p>{@code type} may be left out when the entry is named after its type ({@code anthropic},
 * {@code openai}); {@code baseUrl} defaults to the type's public endpoint
 * ({@link ConfigDefaults#baseUrl(Type)}); {@code apiKey} defaults to empty (no key is sent).
 * Immutable and thread-safe; {@link #toString()} never shows the key.
 *
 * <pre>{@code
 * providers:
 *   anthropic: { type: anthropic, baseUrl: "https://api.anthropic.com", apiKey: "${ANTHROPIC_API_KEY:-}" }
 * }</pre>
 *
 * @param name            the key under {@code providers}
 * @param type            which wire protocol the provider speaks
 * @param baseUrl         absolute {@code http} or {@code https} URL the API paths are appended to
 * @param apiKey          the credential, after {@code ${ENV}} interpolation; may be empty
 * @param storedResponses {@code storedResponses}, default false: whether Responses requests that
 *                        refer to state the provider stores by id ({@code previous_response_id},
 *                        {@code conversation}, {@code item_reference}) are forwarded to it. That
 *                        state is stored under this provider's key, which every caller of the
 *                        gateway shares, so any caller could continue any stored conversation whose
 *                        id it knows: turn it on only where the callers may see each other's work.
 */
public record ProviderConfig(String name, Type type, URI baseUrl, String apiKey, boolean storedResponses) {

    public ProviderConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(apiKey, "apiKey");
    }

    /** A provider that forwards no reference to stored Responses state (the default). */
    public ProviderConfig(String name, Type type, URI baseUrl, String apiKey) {
        this(name, type, baseUrl, apiKey, false);
    }

    /** Whether an API key was configured. */
    public boolean hasApiKey() {
        return !apiKey.isEmpty();
    }

    @Override
    public String toString() {
        return "ProviderConfig[name=" + name + ", type=" + type + ", baseUrl=" + baseUrl
                + ", apiKey=" + (hasApiKey() ? "***" : "") + ", storedResponses=" + storedResponses + "]";
    }

    /** The wire protocol of a provider; written in YAML in lower case. */
    public enum Type {
        /** The Anthropic Messages API ({@code /v1/messages}). */
        ANTHROPIC,
        /** The OpenAI Chat Completions API ({@code /chat/completions}). */
        OPENAI
    }
}
