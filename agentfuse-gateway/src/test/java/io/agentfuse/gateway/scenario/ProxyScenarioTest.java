package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Requests that reach their own model at once: the plain proxy path, both dialects, complete and streamed. */
class ProxyScenarioTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void answersAnOpenAiRequestFromItsOwnModelWithTheGatewayHeaders() {
        harness.mock.script(MockStep.builder().text("Hello there").build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("Hello there");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.header("x-agentfuse-attempts")).isEqualTo("1");
        assertThat(reply.header("x-agentfuse-fallbacks")).isNull();
    }

    @Test
    void sendsTheUpstreamModelNameAndTheConfiguredKeyNeverTheCallersCredentials() {
        harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false),
                Map.of("x-api-key", "caller-key", "authorization", "Bearer caller-token"));

        RecordedRequest upstream = harness.mock.requests().get(0);
        assertThat(upstream.jsonBody().orElseThrow().getString("model")).isEqualTo("claude-sonnet-4-5");
        assertThat(upstream.header("x-api-key")).contains("sk-ant-configured");
        assertThat(upstream.header("authorization")).isEmpty();
    }

    @Test
    void streamsAnAnthropicAnswerEventByEvent() {
        harness.mock.script(MockStep.builder().chunks("Hel", "lo").build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).startsWith("text/event-stream");
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4");
        assertThat(reply.events()).extracting(event -> event.event())
                .startsWith("message_start").endsWith("message_stop");
        assertThat(reply.data()).contains("\"Hel\"").contains("\"lo\"");
    }

    @Test
    void streamsAnOpenAiAnswerEndingWithDone() {
        harness.mock.script(MockStep.builder().chunks("Hel", "lo").build());

        StreamReply reply = harness.client.stream("/v1/chat/completions", openAiRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.events().get(reply.events().size() - 1).isDone()).isTrue();
        assertThat(reply.data()).contains("Hel").contains("lo");
    }
}
