package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider's usage that claims more tokens than a {@code long} holds (a broken or hostile
 * OpenAI-compatible server, a proxy that rewrites counts): the answer is still served, the budget
 * counts it as spent to the full, and nothing of the request stays reserved.
 */
class ProviderUsageOverflowTest {

    private static final long MOST = Long.MAX_VALUE;
    private static final String MESSAGE_START = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-haiku-4-5\",\"content\":[],"
            + "\"usage\":{\"input_tokens\":" + MOST + ",\"output_tokens\":0}}}\n\n";
    private static final String TEXT = "event: content_block_start\ndata: {\"type\":\"content_block_start\","
            + "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n"
            + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n";
    private static final String MESSAGE_END = "event: message_delta\ndata: {\"type\":\"message_delta\","
            + "\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":90}}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  everything: { scope: global, tokens: 1000000 }
                """);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aCompleteAnswerClaimingMoreTokensThanALongHoldsIsServedAndSpendsTheBudget() {
        gateway.mock.defaultStep(MockStep.builder().body(new JsonObject().put("id", "msg_1").put("type", "message")
                .put("role", "assistant").put("model", "claude-haiku-4-5")
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "Hello")))
                .put("stop_reason", "end_turn").put("stop_sequence", null)
                .put("usage", new JsonObject().put("input_tokens", MOST).put("output_tokens", 90))).build());

        Reply reply = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("Hello");
        assertThat(reply.header("x-agentfuse-budget")).startsWith("everything; scope=global; remaining=0;");
        JsonObject window = window();
        assertThat(window.getJsonObject("spent").getLong("tokens")).isEqualTo(MOST);
        assertThat(window.getJsonObject("reserved").getLong("tokens")).isZero();
    }

    @Test
    void aStreamClaimingMoreTokensThanALongHoldsEndsCleanlyAndLeavesNothingReserved() {
        gateway.mock.defaultStep(MockStep.builder().body(MESSAGE_START + TEXT + MESSAGE_END).build());

        StreamReply reply = gateway.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).as(reply.data()).isFalse();
        assertThat(reply.events().get(reply.events().size() - 1).event()).isEqualTo("message_stop");
        Eventually.holdsAsked(gateway.vertx, () -> window().getJsonObject("reserved").getLong("tokens") == 0);
        assertThat(window().getJsonObject("spent").getLong("tokens")).isEqualTo(MOST);
    }

    @Test
    void aResponsesAnswerClaimingMoreTokensThanALongHoldsIsServedAndSpendsTheBudget() {
        gateway.mock.defaultStep(MockStep.builder().body("{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,"
                + "\"status\":\"completed\",\"model\":\"gpt-4o-mini\",\"output\":[{\"type\":\"message\",\"id\":\"msg_1\","
                + "\"role\":\"assistant\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hello\","
                + "\"annotations\":[]}]}],\"usage\":{\"input_tokens\":1e30,\"output_tokens\":99999999999999999999}}").build());

        Reply reply = gateway.client.post("/v1/responses", responsesRequest(false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.body()).contains("Hello");
        assertThat(window().getJsonObject("spent").getLong("tokens")).isEqualTo(MOST);
        assertThat(window().getJsonObject("reserved").getLong("tokens")).isZero();
    }

    @Test
    void aResponsesStreamClaimingMoreTokensThanALongHoldsEndsCleanlyAndSpendsTheBudget() {
        String response = "\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"model\":\"gpt-4o-mini\",\"output\":[]";
        gateway.mock.defaultStep(MockStep.builder().body("event: response.created\ndata: {\"type\":\"response.created\","
                + "\"sequence_number\":0,\"response\":{" + response + ",\"status\":\"in_progress\"}}\n\n"
                + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,"
                + "\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hello\"}\n\n"
                + "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{"
                + response + ",\"status\":\"completed\",\"usage\":{\"input_tokens\":1e30,\"output_tokens\":90}}}\n\n").build());

        StreamReply reply = gateway.client.stream("/v1/responses", responsesRequest(true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).as(reply.data()).isFalse();
        assertThat(reply.events().get(reply.events().size() - 1).event()).isEqualTo("response.completed");
        Eventually.holdsAsked(gateway.vertx, () -> window().getJsonObject("reserved").getLong("tokens") == 0);
        assertThat(window().getJsonObject("spent").getLong("tokens")).isEqualTo(MOST);
    }

    private static JsonObject responsesRequest(boolean stream) {
        JsonObject body = new JsonObject().put("model", "gpt-4o-mini").put("input", "Hi");
        return stream ? body.put("stream", true) : body;
    }

    private JsonObject window() {
        return gateway.client.get("/admin/budgets").json().getJsonArray("budgets").getJsonObject(0)
                .getJsonArray("windows").getJsonObject(0);
    }
}
