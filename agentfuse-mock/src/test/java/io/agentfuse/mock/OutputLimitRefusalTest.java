package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock refuses an output limit above a real model's published maximum as its provider does, with
 * a 400 of the provider's shape and no step of the script taken: Anthropic's {@code max_tokens},
 * Chat Completions' {@code max_tokens} and {@code max_completion_tokens}, the Responses API's
 * {@code max_output_tokens}. A limit within it, and any limit for a name the tests invent, is answered.
 */
class OutputLimitRefusalTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anthropicRefusesMaxTokensAboveClaudeHaikusOutputLimit() throws Exception {
        mock.script(MockStep.builder().build());

        HttpResponse<String> refused = post(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH,
                request("claude-haiku-4-5-20251001", "max_tokens", 84_300));

        assertThat(refused.statusCode()).isEqualTo(400);
        JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request_error");
        assertThat(error.getString("message")).isEqualTo("max_tokens: 84300 > 64000, which is the maximum allowed number"
                + " of output tokens for claude-haiku-4-5-20251001");
        assertThat(mock.pendingSteps()).as("no step taken").isEqualTo(1);
    }

    @Test
    void chatCompletionsRefusesEitherOutputLimitAboveGpt4oMinisAndNamesTheField() throws Exception {
        for (String field : new String[] {"max_tokens", "max_completion_tokens"}) {
            HttpResponse<String> refused = post(mock.openAiBaseUrl() + "/chat/completions", request("gpt-4o-mini", field, 56_072));

            assertThat(refused.statusCode()).isEqualTo(400);
            JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
            assertThat(error.getString("type")).isEqualTo("invalid_request_error");
            assertThat(error.getString("param")).isEqualTo(field);
            assertThat(error.getString("code")).isEqualTo("invalid_value");
            assertThat(error.getString("message")).isEqualTo(field + " is too large: 56072. This model supports at most"
                    + " 16384 completion tokens, whereas you provided 56072.");
        }
    }

    @Test
    void theResponsesApiRefusesMaxOutputTokensAboveTheModels() throws Exception {
        HttpResponse<String> refused = post(mock.openAiBaseUrl() + "/responses",
                new JsonObject().put("model", "gpt-4.1").put("max_output_tokens", 40_000).put("input", "Summarise"));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(new JsonObject(refused.body()).getJsonObject("error").getString("param")).isEqualTo("max_output_tokens");
    }

    @Test
    void limitsWithinTheModelsAndInventedNamesAreAnswered() throws Exception {
        assertThat(post(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH, request("claude-haiku-4-5", "max_tokens", 64_000))
                .statusCode()).isEqualTo(200);
        assertThat(post(mock.openAiBaseUrl() + "/chat/completions", request("gpt-4o-mini-2024-07-18", "max_tokens", 16_384))
                .statusCode()).isEqualTo(200);
        assertThat(post(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH, request("claude-sonnet", "max_tokens", 500_000))
                .statusCode()).isEqualTo(200);
        assertThat(post(mock.openAiBaseUrl() + "/chat/completions", request("gpt-4o-tiny", "max_completion_tokens", 500_000))
                .statusCode()).isEqualTo(200);
    }

    private static JsonObject request(String model, String field, int limit) {
        return new JsonObject().put("model", model).put(field, limit).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Summarise")));
    }

    private HttpResponse<String> post(String url, JsonObject body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .header("authorization", "Bearer sk-test").header("x-api-key", "sk-ant-test")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
    }
}
