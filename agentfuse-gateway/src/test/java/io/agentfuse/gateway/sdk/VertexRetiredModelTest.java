package io.agentfuse.gateway.sdk;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Gemini model Google has shut down, called through Vertex AI (its token from the mock's endpoint, for
 * a service account it trusts): Vertex answers 404 NOT_FOUND "Publisher Model `projects/…/models/gemini-1.5-pro`
 * was not found", and the gateway falls back from it, as from a retired model of any provider.
 */
class VertexRetiredModelTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
            """ + CloudProviderChainSdkTest.VERTEX_PROVIDER + """
            retry: { maxAttempts: 3, initialDelay: 1ms }
            models:
              gemini-old: { provider: vertex, upstreamModel: gemini-1.5-pro, fallbacks: [gemini-flash] }
              gemini-flash: { provider: vertex, upstreamModel: gemini-2.5-flash }
            """;

    private GatewayHarness harness;

    @BeforeEach
    void start(@TempDir Path dir) {
        harness = CloudProviderChainSdkTest.start(CONFIG, dir);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aGeminiModelGoogleShutDownOnVertexIsFallenBackFromNotRetried() {
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder().text("Served by Flash on Vertex.").build());

        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "gemini-old")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hello?"))));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("Served by Flash on Vertex.");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gemini-old=ERROR(HTTP 404 model refused)");
        assertThat(harness.mock.requestsFor("gemini-1.5-pro")).as("refused again if asked again: not retried").hasSize(1);
    }
}
