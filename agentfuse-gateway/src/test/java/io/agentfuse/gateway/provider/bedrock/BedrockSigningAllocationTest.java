package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.config.ConfigLoader;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.http.JsonPieces;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signing a Bedrock request hashes its body where it lies: a turn with a screenshot, encoded in
 * pieces, is not copied into one array of its size for each attempt's signature.
 */
class BedrockSigningAllocationTest {

    private static final String CONFIG = """
            providers:
              bedrock: { type: bedrock, baseUrl: "http://127.0.0.1:9", region: us-east-1,
                         accessKeyId: AKIAMOCKBEDROCK00001, secretAccessKey: mock-bedrock-secret-access-key-0000000001 }
            models:
              claude: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
            """;

    @Test
    void aScreenshotTurnIsSignedWithoutACopyOfItsBody() throws Exception {
        ProviderConfig provider = ConfigLoader.parse(CONFIG, "test.yaml", Map.of()).providers().get("bedrock");
        UpstreamAuth auth = BedrockAuth.of(provider);
        // The signature is computed where the means say: here, on this thread, where its bytes are counted.
        UpstreamAuth.Means here = new UpstreamAuth.Means(Runnable::run, request -> {
            throw new AssertionError("a signature sends no request of its own");
        });
        Buffer body = JsonPieces.encode(new JsonObject().put("messages", "q83+/Z0a".repeat(600_000))); // 4.8 MB
        UpstreamAuth.Outgoing request = new UpstreamAuth.Outgoing("POST",
                URI.create("http://127.0.0.1:9/model/anthropic.claude-sonnet-4-20250514-v1:0/converse"),
                Map.of("content-type", "application/json"), body);
        auth.headers(request, here).toCompletableFuture().get(30, TimeUnit.SECONDS); // classes loaded

        long before = allocatedByThisThread();
        Map<String, String> signed = auth.headers(request, here).toCompletableFuture().get(30, TimeUnit.SECONDS);
        long allocated = allocatedByThisThread() - before;

        assertThat(signed.get("Authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIAMOCKBEDROCK00001/");
        assertThat(allocated).as("bytes allocated to sign a body of %d bytes", body.length())
                .isLessThan(body.length() / 10);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
