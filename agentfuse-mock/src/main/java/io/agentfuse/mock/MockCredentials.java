package io.agentfuse.mock;

import java.time.Duration;
import java.util.Objects;

/**
 * The secrets a {@link MockProvider} accepts, so that its Bedrock, Gemini, Vertex AI and Azure
 * routes refuse what the real providers refuse: a SigV4 signature made with another secret, an
 * unknown API key, an OAuth token it did not issue. (The OpenAI and Anthropic routes accept any
 * key that is there, and refuse a request without one: {@link ApiKeyCheck}.)
 *
 * <p>Immutable. {@link #defaults()} holds well-known values that tests and the demo configure:
 *
 * <pre>{@code
 * MockCredentials keys = MockCredentials.defaults().withAwsSessionToken("session-1");
 * MockProvider mock = MockProvider.start(vertx, "127.0.0.1", 0, keys).await();
 * }</pre>
 *
 * @param awsAccessKeyId     the access key id of SigV4-signed Bedrock requests
 * @param awsSecretAccessKey the secret the signature is checked with
 * @param awsSessionToken    the session token a request must carry ({@code x-amz-security-token}), or
 *                           {@code null} for long-term keys
 * @param awsRegion          the region a signature must be scoped to
 * @param geminiApiKey       the Gemini API key ({@code x-goog-api-key} or {@code ?key=})
 * @param azureApiKey        the Azure OpenAI key ({@code api-key})
 * @param azureAdToken       the Entra ID token accepted as {@code Authorization: Bearer}
 * @param vertexTokenLifetime how long an access token issued by the Vertex token endpoint is valid
 */
public record MockCredentials(String awsAccessKeyId, String awsSecretAccessKey, String awsSessionToken,
                              String awsRegion, String geminiApiKey, String azureApiKey, String azureAdToken,
                              Duration vertexTokenLifetime) {

    /** The default AWS access key id. */
    public static final String AWS_ACCESS_KEY_ID = "AKIAMOCKBEDROCK00001";
    /** The default AWS secret access key. */
    public static final String AWS_SECRET_ACCESS_KEY = "mock-bedrock-secret-access-key-0000000001";
    /** The default AWS region. */
    public static final String AWS_REGION = "us-east-1";
    /** The default Gemini API key. */
    public static final String GEMINI_API_KEY = "mock-gemini-api-key";
    /** The default Azure OpenAI key. */
    public static final String AZURE_API_KEY = "mock-azure-api-key";
    /** The default Entra ID token. */
    public static final String AZURE_AD_TOKEN = "mock-azure-entra-token";

    public MockCredentials {
        Objects.requireNonNull(awsAccessKeyId, "awsAccessKeyId");
        Objects.requireNonNull(awsSecretAccessKey, "awsSecretAccessKey");
        Objects.requireNonNull(awsRegion, "awsRegion");
        Objects.requireNonNull(geminiApiKey, "geminiApiKey");
        Objects.requireNonNull(azureApiKey, "azureApiKey");
        Objects.requireNonNull(azureAdToken, "azureAdToken");
        Objects.requireNonNull(vertexTokenLifetime, "vertexTokenLifetime");
        if (vertexTokenLifetime.isNegative() || vertexTokenLifetime.isZero()) {
            throw new IllegalArgumentException("vertexTokenLifetime must be > 0, but was " + vertexTokenLifetime);
        }
    }

    /** The well-known defaults (the constants of this class, no session token, tokens valid for an hour). */
    public static MockCredentials defaults() {
        return new MockCredentials(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, null, AWS_REGION, GEMINI_API_KEY,
                AZURE_API_KEY, AZURE_AD_TOKEN, Duration.ofHours(1));
    }

    /** These credentials with temporary AWS credentials: requests must carry {@code sessionToken}. */
    public MockCredentials withAwsSessionToken(String sessionToken) {
        return new MockCredentials(awsAccessKeyId, awsSecretAccessKey, sessionToken, awsRegion, geminiApiKey,
                azureApiKey, azureAdToken, vertexTokenLifetime);
    }

    /** These credentials with Vertex access tokens valid for {@code lifetime}. */
    public MockCredentials withVertexTokenLifetime(Duration lifetime) {
        return new MockCredentials(awsAccessKeyId, awsSecretAccessKey, awsSessionToken, awsRegion, geminiApiKey,
                azureApiKey, azureAdToken, lifetime);
    }
}
