package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A large request (a Claude Code turn with a screenshot) whose model the gateway renames goes to
 * every step of the caller's dialect as the caller's bytes with the model replaced: retried on the
 * primary and then sent to a same-dialect fallback, each attempt gets the whole body, the
 * screenshot byte for byte. (The body is written in pieces that share the caller's buffer,
 * {@code ForwardedBody}; a retry writes those pieces again.) Real HTTP to the mock.
 */
class LargeSameDialectBodyScenarioTest {

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aRetriedAndFallenBackScreenshotTurnReachesEveryAttemptWhole() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG
                .replace("maxBodySize: 16KB", "maxBodySize: 4MB")
                .replace("maxAttempts: 1", "maxAttempts: 2"));
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build(),
                MockStep.builder().status(500).build());
        String screenshot = "iVBORw0KGgo" + "q83+/Z0a".repeat(160 * 1024); // about 1.3 MB of base64
        String messages = "[ {\"role\": \"user\", \"content\": [ {\"type\": \"image\", \"source\": {\"type\": \"base64\","
                + " \"media_type\": \"image/png\", \"data\": \"" + screenshot + "\"}},"
                + " {\"type\": \"text\", \"text\": \"What does the screen say? h\\u00e9 \\ud83d\\ude00\"} ] } ]";
        String body = "{ \"model\": \"claude-sonnet-4\",\n  \"max_tokens\": 64,\n  \"messages\": " + messages + "\n}";

        Reply reply = harness.client.send(HttpMethod.POST, "/v1/messages", Buffer.buffer(body),
                Map.of("content-type", "application/json", "anthropic-version", "2023-06-01"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        List<RecordedRequest> primary = harness.mock.requestsFor("claude-sonnet-4-5");
        List<RecordedRequest> fallback = harness.mock.requestsFor("claude-haiku-4-5");
        assertThat(primary).as("the primary, retried once").hasSize(2);
        assertThat(fallback).as("the same-dialect fallback").hasSize(1);
        JsonObject caller = new JsonObject(body);
        for (RecordedRequest sent : List.of(primary.get(0), primary.get(1), fallback.get(0))) {
            String model = sent.jsonBody().orElseThrow().getString("model");
            assertThat(sent.body()).as("the caller's messages, byte for byte").contains("\"messages\": " + messages);
            assertThat(sent.jsonBody()).contains(caller.copy().put("model", model));
        }
    }
}
