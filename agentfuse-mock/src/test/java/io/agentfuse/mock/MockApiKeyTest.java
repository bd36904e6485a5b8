package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAI, Responses and Anthropic routes refuse a request that carries no API key as the providers do,
 * 401 before the body is read and without taking a step; any key that is there is taken.
 */
class MockApiKeyTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String chat() {
        return new JsonObject().put("model", "gpt-4o-mini").put("max_tokens", 10).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "Hi"))).encode();
    }

    @Test
    void openAiRoutesRefuseARequestWithoutABearerKeyEvenBeforeItsBody() throws Exception {
        mock.script(MockStep.builder().build());

        for (HttpResponse<String> refused : List.of(post(MockProvider.OPENAI_PATH, chat()),
                post(MockProvider.RESPONSES_PATH, "{not json"), post(MockProvider.OPENAI_PATH, chat(), "authorization", "Bearer "),
                post(MockProvider.OPENAI_PATH, chat(), "x-api-key", "sk-ant-elsewhere"))) {
            assertThat(refused.statusCode()).isEqualTo(401);
            JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
            assertThat(error.getString("type")).isEqualTo("invalid_request_error");
            assertThat(error.getString("message")).startsWith("You didn't provide an API key.");
            assertThat(refused.headers().firstValue("x-request-id")).isPresent();
        }
        assertThat(mock.pendingSteps()).as("no step taken").isEqualTo(1);
        assertThat(post(MockProvider.OPENAI_PATH, chat(), "authorization", "Bearer sk-proj-any").statusCode()).isEqualTo(200);
    }

    @Test
    void theAnthropicRouteRefusesARequestWithoutAKeyOrAToken() throws Exception {
        HttpResponse<String> refused = post(MockProvider.ANTHROPIC_PATH, chat());

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(new JsonObject(refused.body()).getJsonObject("error").encode())
                .isEqualTo("{\"type\":\"authentication_error\",\"message\":\"x-api-key header is required\"}");
        assertThat(post(MockProvider.ANTHROPIC_PATH, chat(), "x-api-key", "sk-ant-any").statusCode()).isEqualTo(200);
        assertThat(post(MockProvider.ANTHROPIC_PATH, chat(), "authorization", "Bearer oauth-token").statusCode()).isEqualTo(200);
    }
}
