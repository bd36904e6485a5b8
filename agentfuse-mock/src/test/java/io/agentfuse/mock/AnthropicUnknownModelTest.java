package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Anthropic mock answers a Claude model name the Messages API does not serve — a line's name that
 * was never a model ID, or Sonnet and Opus 4's retired ones — with Anthropic's 404
 * {@code not_found_error} ("model: claude-haiku-4"), taking no step of the script; the names Anthropic
 * serves, and names the tests invent, are answered.
 */
class AnthropicUnknownModelTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();
    private HttpResponse<String> messages(String model) throws Exception {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", 10).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Summarise")));
        return http.send(HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH))
                .header("content-type", "application/json").header("x-api-key", "sk-ant-test").POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-haiku-4", "claude-sonnet-4", "claude-opus-4", "claude-sonnet-4-0",
            "claude-sonnet-4-20250514", "claude-opus-4-0"})
    void aNameAnthropicDoesNotServeIsA404NotFoundErrorNamingIt(String model) throws Exception {
        mock.script(MockStep.builder().build());

        HttpResponse<String> refused = messages(model);

        assertThat(refused.statusCode()).isEqualTo(404);
        JsonObject body = new JsonObject(refused.body());
        assertThat(body.getString("type")).isEqualTo("error");
        assertThat(body.getJsonObject("error").getString("type")).isEqualTo("not_found_error");
        assertThat(body.getJsonObject("error").getString("message")).isEqualTo("model: " + model);
        assertThat(refused.headers().firstValue("request-id")).isPresent();
        assertThat(mock.pendingSteps()).as("no step taken").isEqualTo(1);
        assertThat(mock.requests()).hasSize(1);
    }

    @Test
    void theNamesAnthropicServesAndInventedOnesAreAnswered() throws Exception {
        assertThat(messages("claude-haiku-4-5").statusCode()).isEqualTo(200);
        assertThat(messages("claude-sonnet-4-6").statusCode()).isEqualTo(200);
        assertThat(messages("claude-haiku-4-5-20251001").statusCode()).isEqualTo(200);
        assertThat(messages("claude").statusCode()).isEqualTo(200);
    }
}
