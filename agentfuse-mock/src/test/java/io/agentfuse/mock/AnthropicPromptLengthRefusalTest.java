package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Anthropic mock refuses a prompt longer than the model's window as the Messages API does, with its
 * words; {@code anthropic-beta: context-1m-2025-08-07} widens it to 1M tokens for a model that takes
 * the beta, and for no other; and a prompt that leaves the window too little room for its
 * {@code max_tokens}.
 */
class AnthropicPromptLengthRefusalTest extends RunningMock {

    /** 300 000 tokens as the mock counts (four characters a token), and more as Claude's tokenizer would. */
    private static final String LONG_TEXT = "x".repeat(1_200_000);

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void answerEveryRequest() {
        mock.defaultStep(MockStep.builder().build());
    }

    private HttpResponse<String> messages(String model, String beta) throws Exception {
        return messages(model, beta, LONG_TEXT, 10);
    }

    private HttpResponse<String> messages(String model, String beta, String text, int maxTokens) throws Exception {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", maxTokens).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", text)));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH))
                .header("content-type", "application/json").header("x-api-key", "sk-ant-test").POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        if (beta != null) {
            request.header("anthropic-beta", beta);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenAPromptOverTwoHundredThousandTokensThenOnlyAModelAskedForItsMillionTokenWindowTakesIt() throws Exception {
        HttpResponse<String> withoutTheBeta = messages("claude-sonnet-4-5-20250929", null);
        HttpResponse<String> withIt = messages("claude-sonnet-4-5-20250929", "fine-grained-tool-streaming-2025-05-14,context-1m-2025-08-07");
        HttpResponse<String> aModelWithoutIt = messages("claude-haiku-4-5", "context-1m-2025-08-07");

        assertThat(withoutTheBeta.statusCode()).isEqualTo(400);
        JsonObject error = new JsonObject(withoutTheBeta.body()).getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request_error");
        assertThat(error.getString("message")).matches("prompt is too long: 3000\\d\\d tokens > 200000 maximum");
        assertThat(withIt.statusCode()).isEqualTo(200);
        assertThat(aModelWithoutIt.statusCode()).isEqualTo(400);
    }

    @Test
    void todaysModelsTakeAMillionTokensWithoutTheBetaAndHaikuFourFiveStillTwoHundredThousand() throws Exception {
        for (String model : new String[] {"claude-sonnet-5", "claude-sonnet-5-20260630", "claude-opus-5-5", "claude-opus-4-8",
                "claude-fable-5-2", "claude-haiku-5-5"}) {
            assertThat(messages(model, null).statusCode()).as(model).isEqualTo(200);
        }
        HttpResponse<String> haiku = messages("claude-haiku-4-5-20251001", null);

        assertThat(haiku.statusCode()).isEqualTo(400);
        assertThat(new JsonObject(haiku.body()).getJsonObject("error").getString("message"))
                .matches("prompt is too long: 3000\\d\\d tokens > 200000 maximum");
    }

    @Test
    void givenAPromptThatFitsWhenMaxTokensWouldOverrunTheWindowThenItIsRefusedInAnthropicsWords() throws Exception {
        String text = "x".repeat(560_000); // 140 000 tokens and a few as the mock counts

        HttpResponse<String> tooMuch = messages("claude-3-7-sonnet-20250219", null, text, 64_000);
        HttpResponse<String> room = messages("claude-3-7-sonnet-20250219", null, text, 50_000);

        assertThat(tooMuch.statusCode()).isEqualTo(400);
        assertThat(new JsonObject(tooMuch.body()).getJsonObject("error").getString("message"))
                .matches("input length and `max_tokens` exceed context limit: 1400\\d\\d \\+ 64000 > 200000, "
                        + "decrease input length or `max_tokens` and try again");
        assertThat(room.statusCode()).isEqualTo(200);
        assertThat(messages("claude-opus-4-1-20250805", null, text, 64_000).statusCode()).isEqualTo(400);
        assertThat(messages("claude-3-7-sonnet-20250219", "model-context-window-exceeded-2025-08-26", text, 64_000).statusCode())
                .as("the beta that has it stop at the window").isEqualTo(200);
        for (String model : new String[] {"claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-6", "claude-sonnet-5"}) {
            assertThat(messages(model, null, text, 64_000).statusCode()).as(model + " stops at its window").isEqualTo(200);
        }
    }
}
