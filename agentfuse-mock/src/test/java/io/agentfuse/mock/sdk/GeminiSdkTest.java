package io.agentfuse.mock.sdk;

import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.google.genai.types.Model;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The Google GenAI SDK against the Gemini mock: answers, streams, token counts and errors. */
class GeminiSdkTest extends RunningMockProvider {

    static final String MODEL = "gemini-2.5-pro";

    private Client client(String apiKey) {
        return Client.builder().apiKey(apiKey).httpOptions(HttpOptions.builder().baseUrl(mock.anthropicBaseUrl())
                .retryOptions(HttpRetryOptions.builder().attempts(1).build()).build()).build();
    }

    private Client client() {
        return client(MockCredentials.GEMINI_API_KEY);
    }

    /** The answers of a stream, and how it ended. */
    static List<GenerateContentResponse> drain(ResponseStream<GenerateContentResponse> stream) {
        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (stream) {
            stream.forEach(chunks::add);
        }
        return chunks;
    }

    @Test
    void givenAScriptedAnswerWhenTheSdkGeneratesContentThenItReadsTheTextFinishReasonAndUsage() {
        mock.script(MockStep.builder().text("Hello from Gemini").inputTokens(11).outputTokens(5).build());

        GenerateContentResponse answer = client().models.generateContent(MODEL, "Hi", null);

        assertThat(answer.text()).isEqualTo("Hello from Gemini");
        assertThat(answer.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(answer.usageMetadata().orElseThrow().promptTokenCount()).contains(11);
        assertThat(answer.usageMetadata().orElseThrow().candidatesTokenCount()).contains(5);
        assertThat(mock.requests().get(0).header("x-goog-api-key")).contains(MockCredentials.GEMINI_API_KEY);
        assertThat(mock.requestsFor(MODEL)).hasSize(1);
    }

    @Test
    void givenScriptedToolCallsWhenTheSdkGeneratesContentThenItReadsTheFunctionCalls() {
        mock.script(MockStep.builder().text("").toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris"))
                .build());

        GenerateContentResponse answer = client().models.generateContent(MODEL, "Weather?", null);

        FunctionCall call = answer.functionCalls().get(0);
        assertThat(call.name()).contains("get_weather");
        assertThat(call.args()).contains(Map.of("city", "Paris"));
    }

    @Test
    void givenTheContentFilterFinishReasonWhenTheSdkGeneratesContentThenTheFinishReasonIsSafety() {
        mock.script(MockStep.builder().finishReason("content_filter").build());

        assertThat(client().models.generateContent(MODEL, "Hi", null).finishReason().knownEnum())
                .isEqualTo(FinishReason.Known.SAFETY);
    }

    @Test
    void givenAScriptedStreamWhenTheSdkStreamsThenItReadsEveryPieceAndTheFinalUsage() {
        mock.script(MockStep.builder().chunks("Hel", "lo ", "Gemini").inputTokens(7).outputTokens(3).firstChunkDelayMs(20)
                .toolCall("call_2", "lookup", new JsonObject().put("q", "x")).build());

        List<GenerateContentResponse> chunks = drain(client().models.generateContentStream(MODEL, "Hi", null));

        String text = chunks.stream().map(GenerateContentResponse::text).filter(piece -> piece != null)
                .reduce("", String::concat);
        assertThat(text).isEqualTo("Hello Gemini");
        assertThat(chunks).anySatisfy(chunk -> assertThat(chunk.functionCalls()).extracting(call -> call.name().orElseThrow())
                .containsExactly("lookup"));
        GenerateContentResponse last = chunks.get(chunks.size() - 1);
        assertThat(last.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(last.usageMetadata().orElseThrow().promptTokenCount()).contains(7);
        assertThat(mock.requests().get(0).path()).endsWith("/models/" + MODEL + ":streamGenerateContent");
    }

    @Test
    void givenAnErrorInsideTheStreamWhenTheSdkStreamsThenItRaisesTheErrorAfterThePiecesBefore() {
        mock.script(MockStep.builder().chunks("one ", "two").streamError(503).streamErrorAfterChunks(1).build());
        List<String> pieces = new ArrayList<>();

        ApiException error = catchThrowableOfType(ApiException.class, () -> {
            try (ResponseStream<GenerateContentResponse> stream = client().models.generateContentStream(MODEL, "Hi", null)) {
                stream.forEach(chunk -> pieces.add(chunk.text()));
            }
        });

        assertThat(pieces).containsExactly("one ");
        assertThat(error.code()).isEqualTo(503);
        assertThat(error.status()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void givenAScriptedTokenCountWhenTheSdkCountsTokensThenItReadsTheTotal() {
        mock.script(MockStep.builder().inputTokens(321).build());

        assertThat(client().models.countTokens(MODEL, "How many tokens is this?", null).totalTokens()).contains(321);
    }

    @Test
    void givenTheModelListWhenTheSdkListsAndGetsModelsThenItReadsTheMocksModels() {
        Model model = client().models.get(MODEL, null);

        assertThat(model.name()).contains("models/" + MODEL);
        assertThat(mock.requests()).extracting(request -> request.method()).containsExactly("GET");
    }

    @ParameterizedTest
    @CsvSource({
            "429, , RESOURCE_EXHAUSTED",
            "503, , UNAVAILABLE",
            "500, , INTERNAL",
            "400, , INVALID_ARGUMENT",
            "504, , DEADLINE_EXCEEDED",
            "429, RATE_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED",
    })
    void givenAScriptedErrorWhenTheSdkGeneratesContentThenItRaisesTheApiError(int status, String errorType, String googleStatus) {
        mock.script(MockStep.builder().status(status).errorType(errorType).build());

        ApiException error = catchThrowableOfType(ApiException.class, () -> client().models.generateContent(MODEL, "Hi", null));

        assertThat(error).isInstanceOf(status >= 500 ? ServerException.class : ClientException.class);
        assertThat(error.code()).isEqualTo(status);
        assertThat(error.status()).isEqualTo(googleStatus);
    }

    @Test
    void givenAWrongApiKeyWhenTheSdkGeneratesContentThenItIsRefusedAsTheGeminiApiRefusesItAndNoStepIsTaken() {
        mock.script(MockStep.builder().text("never sent").build());

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client("not-the-key").models.generateContent(MODEL, "Hi", null));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.status()).isEqualTo("INVALID_ARGUMENT");
        assertThat(error.message()).startsWith("API key not valid. Please pass a valid API key.").contains("API_KEY_INVALID");
        assertThat(mock.pendingSteps()).isEqualTo(1);
    }
}
