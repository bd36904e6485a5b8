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

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An OpenAI-compatible provider that writes a tool call's {@code id} or {@code arguments} as
 * {@code null} (the answer's shape allows it): an Anthropic caller gets the call, with an id made
 * up and empty arguments, as when the fields are left out.
 */
class NullToolCallFieldsScenarioTest {

    private static final String ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
            + "\"tool_calls\":[{\"id\":null,\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"arguments\":null}}]},"
            + "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}";
    private static final String STREAM = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":"
            + "[{\"index\":0,\"id\":null,\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"arguments\":null}}]},"
            + "\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\","
            + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
            + "data: [DONE]\n\n";

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
    void aCompleteAnswerWithANullIdAndNullArgumentsReachesAnAnthropicCallerAsAToolUse() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(ANSWER).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("gpt-4o-mini", false), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject toolUse = reply.json().getJsonArray("content").getJsonObject(0);
        assertThat(toolUse.getString("type")).isEqualTo("tool_use");
        assertThat(toolUse.getString("id")).isNotBlank();
        assertThat(toolUse.getString("name")).isEqualTo("get_time");
        assertThat(toolUse.getJsonObject("input")).isEqualTo(new JsonObject());
        assertThat(reply.json().getString("stop_reason")).isEqualTo("tool_use");
    }

    @Test
    void aStreamedCallWithANullIdAndNullArgumentsReachesAnAnthropicCallerAsAToolUse() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(STREAM).build());

        StreamReply reply = harness.client.stream("/v1/messages", anthropicRequest("gpt-4o-mini", true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("gpt-4o-mini");
        assertThat(reply.cutOff()).as(reply.data()).isFalse();
        JsonObject block = reply.events().stream().filter(event -> "content_block_start".equals(event.event()))
                .map(SseEvent::data).map(JsonObject::new).findFirst().orElseThrow().getJsonObject("content_block");
        assertThat(block.getString("type")).isEqualTo("tool_use");
        assertThat(block.getString("id")).isNotBlank();
        assertThat(block.getString("name")).isEqualTo("get_time");
        assertThat(reply.events().get(reply.events().size() - 1).event()).isEqualTo("message_stop");
    }
}
