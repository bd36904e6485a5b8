package io.agentfuse.gateway.sdk;

import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.google.genai.types.ListModelsConfig;
import com.google.genai.types.Model;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Tool;
import com.google.genai.types.Type;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The Google GenAI Java SDK as a caller of the gateway's Gemini API (its base URL the gateway's),
 * served by Anthropic and OpenAI models of the mock provider: answers complete and streamed, tool
 * calls both ways, token counts, the model list, and the gateway's refusals as the SDK's
 * {@link ApiException} with the status the gateway sent. The SDK keeps its default retries, which go
 * by status only (408, 429, 5xx): so the gateway sends its final refusals — the chain failed, a
 * breaker that stays open long — as 400, with Google's {@code status} and the gateway's reason in the
 * body, and the SDK raises them at once without retrying; a breaker that reopens soon keeps its 503.
 */
class GeminiSdkCallerTest {

    private static final String TEXT = "Hello from the mock provider.";

    private SdkGateway gateway;
    private Client client;

    @BeforeEach
    void start() {
        gateway = SdkGateway.onAStillClock(); // what a test opens stays open until its SDK call
        client = Client.builder().apiKey("caller-google-key").httpOptions(HttpOptions.builder().baseUrl(gateway.baseUrl())
                .build()).build();
    }

    private Client clientWithoutRetries() {
        return Client.builder().apiKey("caller-google-key").httpOptions(HttpOptions.builder().baseUrl(gateway.baseUrl())
                .retryOptions(HttpRetryOptions.builder().attempts(1).build()).build()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    private static GenerateContentConfig weatherTool() {
        FunctionDeclaration weather = FunctionDeclaration.builder().name("get_weather").description("The weather of a city")
                .parameters(Schema.builder().type(Type.Known.OBJECT)
                        .properties(Map.of("city", Schema.builder().type(Type.Known.STRING).build()))
                        .required(List.of("city")).build())
                .build();
        return GenerateContentConfig.builder().tools(Tool.builder().functionDeclarations(weather).build())
                .systemInstruction(Content.fromParts(Part.fromText("Answer briefly."))).build();
    }

    private static List<GenerateContentResponse> drain(ResponseStream<GenerateContentResponse> stream) {
        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (stream) {
            stream.forEach(chunks::add);
        }
        return chunks;
    }

    private static String textOf(List<GenerateContentResponse> chunks) {
        StringBuilder text = new StringBuilder();
        chunks.forEach(chunk -> {
            if (chunk.text() != null) {
                text.append(chunk.text());
            }
        });
        return text.toString();
    }

    @Test
    void givenAnAnthropicModelWhenTheSdkGeneratesContentThenItReadsTheTranslatedAnswerAndTheGatewayHeaders() {
        GenerateContentResponse answer = client.models.generateContent("claude-haiku-4", "Hi", null);

        assertThat(answer.text()).isEqualTo(TEXT);
        assertThat(answer.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(answer.usageMetadata().orElseThrow().promptTokenCount()).hasValueSatisfying(tokens -> assertThat(tokens).isPositive());
        assertThat(answer.sdkHttpResponse().orElseThrow().headers().orElseThrow())
                .containsEntry("x-agentfuse-model", "claude-haiku-4").containsEntry("x-agentfuse-attempts", "1");
        RecordedRequest sent = gateway.harness.mock.requestsFor("claude-haiku-4-5").get(0);
        assertThat(sent.path()).isEqualTo("/v1/messages");
        assertThat(sent.header("x-api-key")).contains("sk-ant-configured"); // the gateway's key, never the caller's
        assertThat(sent.body()).doesNotContain("caller-google-key");
    }

    @Test
    void givenAnOpenAiModelWhenTheSdkStreamsThenItReadsEveryPieceAndTheFinish() {
        List<GenerateContentResponse> chunks = drain(client.models.generateContentStream("gpt-4o-mini", "Hi", null));

        assertThat(textOf(chunks)).isEqualTo(TEXT);
        GenerateContentResponse last = chunks.get(chunks.size() - 1);
        assertThat(last.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(gateway.harness.mock.requestsFor("gpt-4o-mini")).singleElement()
                .satisfies(sent -> assertThat(sent.jsonBody().orElseThrow().getBoolean("stream")).isTrue());
    }

    @Test
    void givenAToolCallOfAnAnthropicModelWhenTheSdkGeneratesContentThenItReadsTheFunctionCall() {
        gateway.harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder()
                .toolCall("toolu_1", "get_weather", new JsonObject().put("city", "Paris")).build());

        GenerateContentResponse answer = client.models.generateContent("claude-haiku-4", "Weather in Paris?", weatherTool());

        FunctionCall call = answer.functionCalls().get(0);
        assertThat(call.name()).contains("get_weather");
        assertThat(call.args()).contains(Map.of("city", "Paris"));
        JsonObject sent = gateway.harness.mock.requestsFor("claude-haiku-4-5").get(0).jsonBody().orElseThrow();
        assertThat(sent.getJsonArray("tools").getJsonObject(0).getString("name")).isEqualTo("get_weather");
        assertThat(sent.getValue("system").toString()).contains("Answer briefly.");
    }

    @Test
    void givenAToolCallOfAnOpenAiModelWhenTheSdkStreamsThenItReadsTheWholeFunctionCall() {
        gateway.harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder()
                .toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris")).build());

        List<GenerateContentResponse> chunks = drain(client.models.generateContentStream("gpt-4o-mini", "Weather?", weatherTool()));

        List<FunctionCall> calls = new ArrayList<>();
        chunks.forEach(chunk -> {
            if (chunk.functionCalls() != null) {
                calls.addAll(chunk.functionCalls());
            }
        });
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.name()).contains("get_weather");
            assertThat(call.args()).contains(Map.of("city", "Paris"));
        });
    }

    @Test
    void givenAFunctionResponseWhenTheSdkSendsItBackThenTheUpstreamGetsItAsTheToolResult() {
        List<Content> conversation = List.of(
                Content.builder().role("user").parts(Part.fromText("Weather in Paris?")).build(),
                Content.builder().role("model").parts(Part.builder().functionCall(FunctionCall.builder()
                        .name("get_weather").args(Map.of("city", "Paris")).build()).build()).build(),
                Content.builder().role("user").parts(Part.builder().functionResponse(FunctionResponse.builder()
                        .name("get_weather").response(Map.of("forecast", "sunny, 24 C")).build()).build()).build());

        GenerateContentResponse answer = client.models.generateContent("gpt-4o-mini", conversation, weatherTool());

        assertThat(answer.text()).isEqualTo(TEXT);
        JsonObject sent = gateway.harness.mock.requestsFor("gpt-4o-mini").get(0).jsonBody().orElseThrow();
        assertThat(sent.getJsonArray("messages").encode()).contains("\"role\":\"tool\"").contains("sunny, 24 C");
    }

    @Test
    void givenAConversationWhenTheSdkCountsTokensThenTheGatewayCountsThem() {
        int few = client.models.countTokens("claude-haiku-4", "Hi", null).totalTokens().orElseThrow();
        int more = client.models.countTokens("claude-haiku-4",
                "A much longer question about the weather in Paris, Lyon and Marseille this week?", null)
                .totalTokens().orElseThrow();

        assertThat(few).isPositive();
        assertThat(more).isGreaterThan(few);
        assertThat(gateway.harness.mock.requests()).isEmpty(); // counted by the gateway, not upstream
    }

    @Test
    void givenTheConfiguredModelsWhenTheSdkListsAndGetsThemThenItReadsThem() {
        List<String> names = new ArrayList<>();
        client.models.list(ListModelsConfig.builder().pageSize(4).queryBase(true).build())
                .forEach(model -> names.add(model.name().orElseThrow()));
        Model one = client.models.get("gpt-4o-mini", null);

        assertThat(names).containsExactly("models/claude-haiku-4", "models/gpt-4o-mini", "models/claude-slow",
                "models/gpt-slow", "models/claude-long-open", "models/gpt-long-open");
        assertThat(one.name()).contains("models/gpt-4o-mini");
        assertThat(one.supportedActions().orElseThrow()).contains("generateContent", "streamGenerateContent");
    }

    @Test
    void givenAnUnknownModelWhenTheSdkGeneratesContentThenItRaisesA404NotFound() {
        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client.models.generateContent("no-such-model", "Hi", null));

        assertThat(error.code()).isEqualTo(404);
        assertThat(error.status()).isEqualTo("NOT_FOUND");
        assertThat(error.message()).contains("no-such-model");
    }

    @Test
    void givenABreakerThatStaysOpenLongWhenTheSdkGeneratesContentThenItRaisesTheRefusalAtOnce() {
        gateway.trip("claude-long-open", "claude-long-open");
        long before = gateway.requests();

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client.models.generateContent("claude-long-open", "Hi", null));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.status()).isEqualTo("UNAVAILABLE");
        assertThat(error.message()).contains("open circuit breaker").contains("claude-long-open").contains("circuit_open");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void givenABreakerThatReopensSoonWhenTheSdkGeneratesContentThenItRaisesA503Unavailable() {
        gateway.trip("claude-haiku-4", "claude-haiku-4-5");

        try (Client once = clientWithoutRetries()) {
            ServerException error = catchThrowableOfType(ServerException.class,
                    () -> once.models.generateContent("claude-haiku-4", "Hi", null));

            assertThat(error.code()).isEqualTo(503);
            assertThat(error.status()).isEqualTo("UNAVAILABLE");
        }
    }

    @Test
    void givenEveryStepFailingWhenTheSdkGeneratesContentThenItRaisesTheFailureAtOnce() {
        gateway.upstreamFails();

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client.models.generateContent("gpt-4o-mini", "Hi", null));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.status()).isEqualTo("UNAVAILABLE");
        assertThat(error.message()).contains("all fallbacks failed").contains("all_fallbacks_failed");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void givenEveryStepFailingWhenTheSdkStreamsThenItRaisesTheFailureBeforeAnyPiece() {
        gateway.upstreamFails();

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> drain(client.models.generateContentStream("claude-haiku-4", "Hi", null)));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.status()).isEqualTo("UNAVAILABLE");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void givenAStreamThatBreaksAfterItsFirstPieceWhenTheSdkStreamsThenItRaisesTheErrorAfterThatPiece() {
        gateway.streamsBreak();
        List<String> pieces = new ArrayList<>();

        ApiException error = catchThrowableOfType(ApiException.class, () -> {
            try (ResponseStream<GenerateContentResponse> stream = client.models.generateContentStream("claude-haiku-4", "Hi", null)) {
                stream.forEach(chunk -> pieces.add(chunk.text()));
            }
        });

        assertThat(pieces).containsExactly("Hel");
        assertThat(error.code()).isEqualTo(502);
        assertThat(error.message()).contains("claude-haiku-4");
    }
}
