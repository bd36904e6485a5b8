package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The Azure OpenAI mock over real HTTP: its keys, its paths, its additions and its errors. */
class AzureMockTest extends RunningMock {

    private final HttpClient http = HttpClient.newHttpClient();
    private static JsonObject chat(String deployment) {
        return new JsonObject().put("model", deployment)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private HttpResponse<String> post(String pathAndQuery, String header, String value, JsonObject body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + pathAndQuery))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        if (header != null) {
            request.header(header, value);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenTheApiKeyWhenAChatCompletionIsAskedOfTheV1ApiThenItAnswersWithAzuresFilterResults() throws Exception {
        mock.script(MockStep.builder().text("Hello from Azure").build());

        HttpResponse<String> answer = post("/openai/v1/chat/completions?api-version=preview", "api-key",
                MockCredentials.AZURE_API_KEY, chat("gpt-4.1-prod"));

        JsonObject body = new JsonObject(answer.body());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(body.getString("model")).isEqualTo("gpt-4.1-prod");
        assertThat(body.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("Hello from Azure");
        assertThat(body.getJsonArray("prompt_filter_results")).hasSize(1);
        assertThat(mock.azureBaseUrl()).endsWith("/openai/v1");
    }

    @Test
    void givenAnEntraTokenWhenTheResponsesApiIsAskedThenItAnswers() throws Exception {
        HttpResponse<String> answer = post("/openai/v1/responses", "authorization", "Bearer " + MockCredentials.AZURE_AD_TOKEN,
                new JsonObject().put("model", "gpt-4.1-prod").put("input", "Hi"));

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(answer.body()).getString("object")).isEqualTo("response");
    }

    @Test
    void givenAWrongKeyOrNoneWhenAzureIsAskedThenItIsRefusedWithAzures401AndNoStepIsTaken() throws Exception {
        mock.script(MockStep.builder().build());

        HttpResponse<String> wrongKey = post("/openai/v1/chat/completions", "api-key", "nope", chat("d"));
        HttpResponse<String> noKey = post("/openai/v1/chat/completions", null, null, chat("d"));
        HttpResponse<String> wrongToken = post("/openai/v1/chat/completions", "authorization", "Bearer nope", chat("d"));

        assertThat(wrongKey.statusCode()).isEqualTo(401);
        assertThat(new JsonObject(wrongKey.body()).getJsonObject("error").getString("message"))
                .startsWith("Access denied due to invalid subscription key");
        assertThat(noKey.statusCode()).isEqualTo(401);
        assertThat(wrongToken.statusCode()).isEqualTo(401);
        assertThat(new JsonObject(wrongToken.body()).getJsonObject("error").getString("message")).startsWith("Unauthorized.");
        assertThat(mock.pendingSteps()).isEqualTo(1);
    }

    @Test
    void givenADeploymentPathWithoutApiVersionWhenAzureIsAskedThenItIsNotFoundAndWithItTheDeploymentIsTheModel()
            throws Exception {
        HttpResponse<String> without = post("/openai/deployments/gpt-prod/chat/completions", "api-key",
                MockCredentials.AZURE_API_KEY, chat("ignored"));
        HttpResponse<String> with = post("/openai/deployments/gpt-prod/chat/completions?api-version=2024-10-21", "api-key",
                MockCredentials.AZURE_API_KEY, chat("ignored"));

        assertThat(without.statusCode()).isEqualTo(404);
        assertThat(new JsonObject(with.body()).getString("model")).isEqualTo("gpt-prod");
    }

    @Test
    void givenAScripted429WhenAzureIsAskedThenItAnswersAzuresErrorWithRetryAfter() throws Exception {
        mock.script(MockStep.builder().status(429).build());

        HttpResponse<String> answer = post("/openai/v1/chat/completions", "api-key", MockCredentials.AZURE_API_KEY, chat("d"));

        assertThat(answer.statusCode()).isEqualTo(429);
        assertThat(answer.headers().firstValue("retry-after")).contains("1");
        assertThat(new JsonObject(answer.body()).getJsonObject("error").getString("code")).isEqualTo("429");
    }

    @Test
    void givenAScriptedContentFilterErrorWhenAzureIsAskedThenItAnswersTheFiltersRefusal() throws Exception {
        mock.script(MockStep.fromJson(new JsonObject().put("status", 400).put("errorType", "content_filter")));

        HttpResponse<String> answer = post("/openai/v1/chat/completions", "api-key", MockCredentials.AZURE_API_KEY, chat("d"));

        JsonObject error = new JsonObject(answer.body()).getJsonObject("error");
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(error.getString("code")).isEqualTo("content_filter");
        assertThat(error.getJsonObject("innererror").getString("code")).isEqualTo("ResponsibleAIPolicyViolation");
    }

    @Test
    void givenAStreamWhenAzureIsAskedThenItBeginsWithTheChunkOfEmptyChoicesThatReportsThePromptFilter() throws Exception {
        mock.script(MockStep.builder().chunks("a", "b").build());

        HttpResponse<String> answer = post("/openai/v1/chat/completions", "api-key", MockCredentials.AZURE_API_KEY,
                chat("d").put("stream", true));

        String firstData = answer.body().lines().filter(line -> line.startsWith("data: ")).findFirst().orElseThrow();
        JsonObject first = new JsonObject(firstData.substring(6));
        assertThat(first.getJsonArray("choices")).isEmpty();
        assertThat(first.getJsonArray("prompt_filter_results")).hasSize(1);
        assertThat(answer.body()).contains("data: [DONE]");
    }
}
