package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An OpenAI-compatible provider answers a tool call whose arguments do not make a JSON object (the
 * model's JSON is cut, as OpenAI warns it can be), to an Anthropic caller, whose client parses the
 * arguments into the tool's {@code input}. A complete answer of that kind is a failed attempt of
 * its step, as a malformed answer is: counted by its breaker, and the chain's next step answers
 * (the last step's, a 502 naming it). A streamed one reaches the caller as the begun call and then
 * an error event and an aborted body — never a {@code message_stop} after a call it would have to
 * complete by guessing — and counts against its breaker the same way.
 */
class BrokenToolArgumentsScenarioTest {

    private static final String CALL = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":"
            + "[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]},"
            + "\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]},"
            + "\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\","
            + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n";

    private static final String COMPLETE = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
            + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
            + "\"arguments\":\"{\\\"a\\\":\"}}]},\"finish_reason\":\"tool_calls\"}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "ended by [DONE]: {0}")
    @ValueSource(booleans = {true, false})
    void aStreamedToolCallWhoseArgumentsAreNotAnObjectEndsWithAnErrorEventForAnAnthropicCaller(boolean done) {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(CALL + (done ? "data: [DONE]\n\n" : "")).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        List<String> types = reply.events().stream().map(SseEvent::event).toList();
        assertThat(types).contains("content_block_start").doesNotContain("content_block_stop", "message_stop");
        SseEvent last = reply.events().get(reply.events().size() - 1);
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("message"))
                .contains("gpt-4o-mini", "call_1", "not a JSON object");
        assertThat(reply.cutOff()).as("the connection is closed after the error event").isTrue();
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aCompleteToolCallWhoseArgumentsAreNotAnObjectIsAFailedAttemptAndTheNextStepAnswers() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(COMPLETE).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo("gpt-4o-mini=ERROR");
        assertThat(reply.json().encode()).contains(MockStep.DEFAULT_TEXT).doesNotContain("call_1");
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aCompleteToolCallWhoseArgumentsAreNotAnObjectAtTheEndOfTheChainIsA502NamingIt() {
        harness.close();
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(COMPLETE).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("gpt-4o-mini", "could not be translated", "call_1", "not a JSON object");
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @Test
    void aCompleteAnswerWhoseFieldsCannotBeReadIsAFailedAttemptNamedWithoutJavasWords() {
        harness.close();
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }",
                "gpt-4o-mini: { provider: openai }"));
        // Its shape passes the check on arrival, but reading it for an Anthropic caller asks "created" to be a number
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder()
                .body(COMPLETE.replace("\"created\":1", "\"created\":\"yesterday\"")).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gpt-4o-mini", false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(502);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("the answer of model gpt-4o-mini could not be read")
                .doesNotContain("java.", "class ");
        assertThat(harness.breaker("gpt-4o-mini").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }
}
