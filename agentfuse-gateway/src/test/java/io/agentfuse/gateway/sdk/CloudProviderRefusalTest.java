package io.agentfuse.gateway.sdk;

import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the real providers refuse, the mocks refuse, and the gateway takes the refusal for what it is:
 * its own credentials, not worth a retry. A Bedrock request signed with the wrong AWS secret, a
 * service account whose key Vertex's token endpoint does not know, and a Vertex token that is no
 * longer valid each end the call with {@code upstream_auth_failed} after exactly one attempt, although
 * the models may be tried three times. The refusal's message names what to check for the provider's
 * kind of credentials, never a secret; a Vertex token refused as invalid is dropped, so the next
 * calls share one fresh token.
 */
class CloudProviderRefusalTest {

    static final String CONFIG = """
            server: { port: 0 }
            providers:
              bedrock:
                type: bedrock
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                region: us-east-1
                accessKeyId: ${AWS_ACCESS_KEY_ID}
                secretAccessKey: not-the-secret-the-mock-checks-with
              foreign:
                type: vertex
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                project: agentfuse-test
                credentials: ${FOREIGN_CREDENTIALS}
              vertex:
                type: vertex
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                project: agentfuse-test
                credentials: ${VERTEX_CREDENTIALS}
              azure-key: { type: azure, baseUrl: "http://127.0.0.1:${MOCK_PORT}/openai/v1", apiKey: not-the-azure-key }
              azure-entra: { type: azure, baseUrl: "http://127.0.0.1:${MOCK_PORT}/openai/v1", azureAdToken: not-the-entra-token }
            retry: { maxAttempts: 3, initialDelay: 1ms, maxDelay: 1ms }
            breakers:
              default: { consecutiveErrors: 100 }
            models:
              wrong-secret: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
              foreign-account: { provider: foreign, upstreamModel: "claude-sonnet-4@20250514" }
              gemini-on-vertex: { provider: vertex, upstreamModel: gemini-2.5-pro }
              wrong-azure-key: { provider: azure-key, upstreamModel: gpt-41-deployment }
              wrong-entra-token: { provider: azure-entra, upstreamModel: gpt-41-deployment }
            """;

    @TempDir
    Path dir;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private void start() {
        harness = GatewayHarness.start(CONFIG, mock -> {
            MockCredentials keys = mock.credentials();
            Path trusted = CloudProviderChainSdkTest.serviceAccountFile(mock, dir);
            return Map.of("AWS_ACCESS_KEY_ID", keys.awsAccessKeyId(), "VERTEX_CREDENTIALS", trusted.toString(),
                    "FOREIGN_CREDENTIALS", withAnotherKey(mock.newVertexServiceAccount("agentfuse-test").json()).toString());
        });
    }

    @Test
    void aBedrockRequestSignedWithTheWrongSecretIsRefusedOnceAndNotRetried() {
        start();

        GatewayClient.Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("wrong-secret", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.body()).contains("upstream_auth_failed", "bedrock");
        assertThat(harness.mock.requestsFor("anthropic.claude-sonnet-4-20250514-v1:0")).hasSize(1);
    }

    @Test
    void aRefusedBedrockSignatureNamesTheAwsKeysToCheckAndNoSecret() {
        start();

        String message = harness.client.post("/v1/chat/completions", openAiRequest("wrong-secret", false)).json()
                .getJsonObject("error").getString("message");

        assertThat(message).contains("AWS SigV4 signature", "providers.bedrock.accessKeyId", "secretAccessKey", "region")
                .doesNotContain("apiKey", "not-the-secret-the-mock-checks-with", harness.mock.credentials().awsAccessKeyId());
    }

    @Test
    void aRefusedVertexTokenNamesTheServiceAccountFileToCheck() {
        start();
        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
        harness.mock.expireVertexTokens();

        String message = harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)).json()
                .getJsonObject("error").getString("message");

        assertThat(message).contains("OAuth2 access token", "providers.vertex.credentials", "agentfuse-test")
                .doesNotContain("apiKey", "ya29.");
    }

    @Test
    void aRefusedAzureKeyOrEntraTokenIsNamedAsTheOneConfigured() {
        start();

        String key = harness.client.post("/v1/chat/completions", openAiRequest("wrong-azure-key", false)).json()
                .getJsonObject("error").getString("message");
        String entra = harness.client.post("/v1/chat/completions", openAiRequest("wrong-entra-token", false)).json()
                .getJsonObject("error").getString("message");

        assertThat(key).contains("API key", "providers.azure-key.apiKey", "azureAdToken").doesNotContain("not-the-azure-key");
        assertThat(entra).contains("Entra ID token", "providers.azure-entra.azureAdToken")
                .doesNotContain(".apiKey", "not-the-entra-token");
    }

    @Test
    void aServiceAccountTheTokenEndpointDoesNotKnowIsRefusedOnceAndTheModelNeverAsked() {
        start();

        GatewayClient.Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("foreign-account", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.body()).contains("upstream_auth_failed", "token endpoint refused");
        assertThat(harness.mock.requestsFor("claude-sonnet-4@20250514")).isEmpty();
        assertThat(harness.mock.requests().stream().map(RecordedRequest::path).filter(path -> path.contains("oauth2")))
                .hasSize(1);
    }

    @Test
    void aVertexTokenThatIsNoLongerValidIsRefusedOnceAndNotRetried() {
        start();
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)).status())
                .isEqualTo(200);
        harness.mock.expireVertexTokens();

        GatewayClient.Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.body()).contains("upstream_auth_failed");
        assertThat(harness.mock.requestsFor("gemini-2.5-pro")).hasSize(2);
    }

    @Test
    void aVertexTokenRefusedAsInvalidIsDroppedSoTheNextCallFetchesAFreshOne() {
        start();
        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
        harness.mock.expireVertexTokens();
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)).status())
                .isEqualTo(502);

        GatewayClient.Reply next = harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(next.status()).isEqualTo(200);
        assertThat(tokenRequests()).isEqualTo(2);
    }

    @Test
    void callsThatComeTogetherAfterATokenWasRefusedShareOneFreshToken() {
        start();
        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
        harness.mock.expireVertexTokens();
        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
            List<CompletableFuture<Integer>> replies = IntStream.range(0, 6).mapToObj(i -> CompletableFuture.supplyAsync(() ->
                    harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false)).status(), callers))
                    .toList();

            assertThat(replies).allSatisfy(reply -> assertThat(reply.join()).isEqualTo(200));
            assertThat(tokenRequests()).isEqualTo(2);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aVertexRefusalOfAValidTokenKeepsIt() {
        start();
        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
        harness.mock.script(MockStep.builder().status(403).build());

        harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));
        GatewayClient.Reply next = harness.client.post("/v1/chat/completions", openAiRequest("gemini-on-vertex", false));

        assertThat(next.status()).isEqualTo(200);
        assertThat(tokenRequests()).isEqualTo(1);
    }

    private long tokenRequests() {
        return harness.mock.requests().stream().filter(request -> request.path().contains("oauth2")).count();
    }

    /** {@code account}'s credentials file with a private key of its own: its assertions no longer verify. */
    private Path withAnotherKey(JsonObject account) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
            Path file = Files.createTempFile(dir, "foreign", ".json");
            return Files.writeString(file, account.copy().put("private_key", pem).encodePrettily());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
