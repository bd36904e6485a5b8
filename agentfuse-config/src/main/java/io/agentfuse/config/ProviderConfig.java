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
 * {@code openai}, {@code gemini}, ...); {@code baseUrl} defaults to the type's public endpoint
 * ({@link ConfigDefaults#baseUrl(Type, Cloud)}: Bedrock's of the {@code region}, Vertex AI's of the
 * {@code location}; an {@code azure} provider must name its resource's); {@code apiKey} defaults to
 * the type's conventional variable, else empty (no key is sent); the cloud providers' own keys are in
 * {@link Cloud} ({@code region}, AWS credentials, {@code project}, {@code location}, {@code credentials},
 * {@code apiVersion}, {@code azureAdToken});
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
 * @param cloud           the keys of the {@code bedrock}, {@code vertex} and {@code azure} types
 *                        ({@link Cloud#NONE} for others)
 */
public record ProviderConfig(String name, Type type, URI baseUrl, String apiKey, Map<String, String> headers,
                             boolean storedResponses, Cloud cloud) {

    public ProviderConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(cloud, "cloud");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** A provider with extra headers, without cloud keys, that forwards no reference to stored Responses state (the default). */
    public ProviderConfig(String name, Type type, URI baseUrl, String apiKey, Map<String, String> headers) {
        this(name, type, baseUrl, apiKey, headers, false, Cloud.NONE);
    }

    /** A provider of a cloud {@code type} with its {@code cloud} keys, forwarding no reference to stored Responses state. */
    public ProviderConfig(String name, Type type, URI baseUrl, String apiKey, Map<String, String> headers, Cloud cloud) {
        this(name, type, baseUrl, apiKey, headers, false, cloud);
    }

    /** A provider without extra headers nor cloud keys that forwards no reference to stored Responses state. */
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
                + ", storedResponses=" + storedResponses + (cloud.equals(Cloud.NONE) ? "" : ", " + cloud) + "]";
    }

    /** The wire protocol of a provider; written in YAML in lower case. */
    public enum Type {
        /** The Anthropic Messages API ({@code /v1/messages}). */
        ANTHROPIC,
        /** The OpenAI Chat Completions API ({@code /chat/completions}), and any server that speaks it. */
        OPENAI,
        /** Azure OpenAI's v1 API ({@code {baseUrl}/chat/completions}, {@code api-key}). */
        AZURE,
        /** Amazon Bedrock's Converse API, signed with AWS SigV4. */
        BEDROCK,
        /** The Gemini API ({@code models/{m}:generateContent}, {@code x-goog-api-key}). */
        GEMINI,
        /** Vertex AI (Gemini and Anthropic models), with a service account's OAuth2 tokens. */
        VERTEX
    }

    /**
     * The keys of the cloud providers, each empty when not written (and not needed by the type):
     *
     * <ul>
     *   <li>{@code bedrock}: {@code region} (required), and {@code accessKeyId} with {@code secretAccessKey}
     *       (and {@code sessionToken} for temporary keys), or {@code credentials: default} for the AWS SDK's
     *       default chain (environment, profile, SSO, container and instance roles);</li>
     *   <li>{@code vertex}: {@code project} (required), {@code location} (default {@code global}) and
     *       {@code credentials}, the path of a service account's credentials file (default
     *       {@code GOOGLE_APPLICATION_CREDENTIALS});</li>
     *   <li>{@code azure}: {@code apiVersion} (sent as {@code ?api-version=} when set) and
     *       {@code azureAdToken}, an Entra ID token sent instead of the {@code api-key}.</li>
     * </ul>
     * Immutable; {@link #toString()} shows no secret (keys, session token, Entra token).
     *
     * @param region          the AWS region
     * @param accessKeyId     the AWS access key id
     * @param secretAccessKey the AWS secret access key
     * @param sessionToken    the AWS session token of temporary credentials
     * @param credentials     {@code default} (Bedrock) or a credentials file's path (Vertex AI)
     * @param project         the Google Cloud project id
     * @param location        the Vertex AI region, or {@code global}
     * @param apiVersion      Azure's {@code api-version}
     * @param azureAdToken    an Entra ID access token for Azure
     */
    public record Cloud(String region, String accessKeyId, String secretAccessKey, String sessionToken,
                        String credentials, String project, String location, String apiVersion,
                        String azureAdToken) {

        /** No cloud keys: the {@code anthropic}, {@code openai} and {@code gemini} types. */
        public static final Cloud NONE = new Cloud("", "", "", "", "", "", "", "", "");

        /** The value of {@code credentials} that selects the AWS SDK's default chain. */
        public static final String DEFAULT_CREDENTIALS = "default";

        public Cloud {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            Objects.requireNonNull(sessionToken, "sessionToken");
            Objects.requireNonNull(credentials, "credentials");
            Objects.requireNonNull(project, "project");
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(azureAdToken, "azureAdToken");
        }

        /** Whether Bedrock's credentials are the AWS SDK's default chain rather than static keys. */
        public boolean usesDefaultChain() {
            return DEFAULT_CREDENTIALS.equals(credentials);
        }

        @Override
        public String toString() {
            return "Cloud[region=" + region + ", accessKeyId=" + (accessKeyId.isEmpty() ? "" : "***")
                    + ", secretAccessKey=" + (secretAccessKey.isEmpty() ? "" : "***")
                    + ", sessionToken=" + (sessionToken.isEmpty() ? "" : "***") + ", credentials=" + credentials
                    + ", project=" + project + ", location=" + location + ", apiVersion=" + apiVersion
                    + ", azureAdToken=" + (azureAdToken.isEmpty() ? "" : "***") + "]";
        }
    }
}
