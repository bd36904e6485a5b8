package io.agentfuse.gateway.budget;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.GatewayOptions;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.function.Function;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider's usage that claims more tokens than a {@code long} holds, alone or in sum (a broken or
 * hostile OpenAI-compatible server, a proxy that rewrites counts), through a real gateway and mock
 * provider on loopback: the answer is still served, the budget counts it as spent to the full (the
 * next request is refused), the {@code tokenOveruse} trigger fires, and nothing of the request stays
 * reserved — complete or streamed, from an OpenAI Chat, Anthropic or Responses provider.
 * Regressions: the sum wrapped negative, so a complete answer ended 500 after the provider had
 * answered, nothing was charged and no trigger fired; a stream's reservation stayed in its window
 * for good; a Responses answer's count of {@code 1e30} failed the attempt as malformed.
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

    /** Who asks, which model answers, and its complete answer claiming too many tokens. */
    enum Route {
        /** An OpenAI answer whose usage says {@code Long.MAX_VALUE} tokens read and as many written: their sum is past a long. */
        OPENAI("/v1/chat/completions", "gpt-4o-mini", new JsonObject()
                .put("id", "chatcmpl-enormous").put("object", "chat.completion").put("created", 1).put("model", "gpt-4o-mini")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("finish_reason", "stop")
                        .put("message", new JsonObject().put("role", "assistant").put("content", "Hello"))))
                .put("usage", new JsonObject().put("prompt_tokens", MOST).put("completion_tokens", MOST)),
                answer -> answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content")),
        /** An Anthropic answer whose usage says {@code Long.MAX_VALUE} tokens read. */
        ANTHROPIC("/v1/messages", "claude-haiku-4", new JsonObject().put("id", "msg_1").put("type", "message")
                .put("role", "assistant").put("model", "claude-haiku-4-5")
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "Hello")))
                .put("stop_reason", "end_turn").put("stop_sequence", null)
                .put("usage", new JsonObject().put("input_tokens", MOST).put("output_tokens", 90)),
                answer -> answer.getJsonArray("content").getJsonObject(0).getString("text"));

        final String path;
        final String model;
        final JsonObject answer;
        final Function<JsonObject, String> text;

        Route(String path, String model, JsonObject answer, Function<JsonObject, String> text) {
            this.path = path;
            this.model = model;
            this.answer = answer;
            this.text = text;
        }

        JsonObject request() {
            return path.equals("/v1/messages") ? anthropicRequest(model, false) : openAiRequest(model, false);
        }
    }

    private GatewayHarness gateway;

    /**
     * The breakers run on a clock that stands still, so a breaker that {@code tokenOveruse} opened is
     * still OPEN when the test looks, however long the machine takes: on the system clock, 300 ms of a
     * loaded machine between the answer and the look half-opened it.
     */
    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  everything: { scope: global, tokens: 1000000 }
                """, GatewayOptions.builder().port(0).clock(new ManualClock()).build());
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Route.class)
    void aCompleteAnswerClaimingMoreTokensThanALongHoldsIsServedAndSpendsTheBudget(Route route) {
        gateway.mock.defaultStep(MockStep.builder().body(route.answer).build());

        Reply answered = gateway.client.post(route.path, route.request(), Map.of());
        Reply next = gateway.client.post(route.path, route.request(), Map.of());

        assertThat(answered.status()).as(answered.body()).isEqualTo(200);
        assertThat(route.text.apply(answered.json())).isEqualTo("Hello");
        assertThat(answered.header("x-agentfuse-budget")).startsWith("everything; scope=global; remaining=0;");
        JsonObject window = window();
        assertThat(window.getJsonObject("spent").getLong("tokens")).isEqualTo(MOST);
        assertThat(window.getJsonObject("reserved").getLong("tokens")).isZero();
        assertThat(next.status()).isEqualTo(429);
        assertThat(next.json().getJsonObject("error").getString("type")).isEqualTo("budget_exceeded");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Route.class)
    void aCompleteAnswerClaimingMoreTokensThanALongHoldsTripsTokenOveruse(Route route) {
        gateway.mock.defaultStep(MockStep.builder().body(route.answer).build());

        gateway.client.post(route.path, route.request(), Map.of());

        assertThat(gateway.breaker(route.model).state()).isEqualTo(CircuitState.OPEN);
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
