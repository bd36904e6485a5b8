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
 * The OpenAI mock answers a model OpenAI has shut down — of each date on its deprecations page, through
 * October 2026 — with OpenAI's 404 {@code model_not_found}, on Chat Completions and on the Responses API
 * alike, taking no step of the script; the models OpenAI still serves, and names the tests invent, are answered.
 */
class OpenAiShutDownModelTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(String path, JsonObject body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + path))
                .header("content-type", "application/json").header("authorization", "Bearer sk-test").POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> chat(String model) throws Exception {
        return post(MockProvider.OPENAI_PATH, new JsonObject().put("model", model).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Summarise"))));
    }

    private HttpResponse<String> responses(String model) throws Exception {
        return post(MockProvider.RESPONSES_PATH, new JsonObject().put("model", model).put("input", "Summarise"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4.5-preview", "gpt-5-codex", "gpt-5.1-codex-max", "o3-deep-research",
            "gpt-5.3-chat-latest", "gpt-4", "gpt-3.5-turbo", "o1", "o3-mini-2025-01-31", "o4-mini", "gpt-4.1-nano"})
    void aModelOpenAiShutDownIsA404ModelNotFoundOnBothApis(String model) throws Exception {
        mock.script(MockStep.builder().build(), MockStep.builder().build());

        for (HttpResponse<String> refused : new HttpResponse[] {chat(model), responses(model)}) {
            assertThat(refused.statusCode()).as(refused.uri().getPath()).isEqualTo(404);
            JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
            assertThat(error.getString("code")).isEqualTo("model_not_found");
            assertThat(error.getString("message"))
                    .isEqualTo("The model `" + model + "` does not exist or you do not have access to it.");
        }
        assertThat(mock.pendingSteps()).as("no step taken").isEqualTo(2);
    }

    @Test
    void theModelsOpenAiStillServesAndInventedOnesAreAnswered() throws Exception {
        for (String model : new String[] {"gpt-4o-mini", "gpt-4.1", "gpt-5", "gpt-5-mini", "o3", "gpt-5.5", "gpt-6.1-sol",
                "gpt-4o", "gpt-codex-1"}) {
            assertThat(chat(model).statusCode()).as(model).isEqualTo(200);
            assertThat(responses(model).statusCode()).as(model).isEqualTo(200);
        }
    }
}
