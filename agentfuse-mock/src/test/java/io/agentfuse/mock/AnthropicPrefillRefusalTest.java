package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The Anthropic mock refuses a prefill (a final assistant turn) ending with whitespace, as the Messages API does. */
class AnthropicPrefillRefusalTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();
    private HttpResponse<String> messages(Object prefill) throws Exception {
        JsonObject body = new JsonObject().put("model", "claude").put("max_tokens", 10).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Count to three"))
                .add(new JsonObject().put("role", "assistant").put("content", prefill)));
        return http.send(HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH))
                .header("content-type", "application/json").header("x-api-key", "sk-ant-test").POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenAPrefillEndingWithWhitespaceThenItIsRefusedWith400AndNoStepIsTaken() throws Exception {
        mock.script(MockStep.builder().build());

        HttpResponse<String> asString = messages("one ");
        HttpResponse<String> asBlocks = messages(new JsonArray().add(new JsonObject().put("type", "text").put("text", "one\n")));

        for (HttpResponse<String> refused : java.util.List.of(asString, asBlocks)) {
            assertThat(refused.statusCode()).isEqualTo(400);
            JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
            assertThat(error.getString("type")).isEqualTo("invalid_request_error");
            assertThat(error.getString("message")).contains("cannot end with trailing whitespace");
        }
        assertThat(mock.pendingSteps()).isEqualTo(1);
    }

    @Test
    void givenAPrefillWithoutTrailingWhitespaceThenItIsAnswered() throws Exception {
        assertThat(messages("one").statusCode()).isEqualTo(200);
    }
}
