package io.agentfuse.gateway.models;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.models.ModelInfo;
import com.anthropic.models.models.ModelListParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.models.Model;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.context.ConversationMapper;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /v1/models}, {@code GET /v1/models/{model}} and {@code POST /v1/messages/count_tokens}, over loopback, raw and through the SDKs. */
class ModelEndpointsTest {

    /** The harness's models, plus a subagent chain naming a family model that has no entry. */
    private static final String CONFIG = GatewayHarness.CONFIG + """
            subagents:
              fallbacks: ["claude-haiku-4", "claude-opus-4-1", null]
            """;

    private GatewayHarness harness;
    private AnthropicClient anthropic;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        anthropic = AnthropicOkHttpClient.builder().baseUrl(harness.gateway.baseUrl()).apiKey("caller-key")
                .maxRetries(0).build();
    }

    @AfterEach
    void stop() {
        anthropic.close();
        harness.close();
    }

    @Test
    void listsTheConfiguredAndTheFamilyModelsInOpenAisShape() {
        Reply reply = harness.client.get("/v1/models");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).startsWith("application/json");
        JsonObject list = reply.json();
        assertThat(list.getString("object")).isEqualTo("list");
        assertThat(ids(list.getJsonArray("data")))
                .containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini", "claude-opus-4-1");
        JsonObject first = list.getJsonArray("data").getJsonObject(0);
        assertThat(first.getString("object")).isEqualTo("model");
        assertThat(first.getString("owned_by")).isEqualTo("anthropic");
        assertThat(first.getLong("created")).isNotNull();
    }

    @Test
    void answersInAnthropicsShapeWhenTheRequestCarriesAnthropicVersion() {
        Reply reply = harness.client.send(HttpMethod.GET, "/v1/models?limit=2", Buffer.buffer(), Map.of("anthropic-version", "2023-06-01"));

        JsonObject page = reply.json();
        assertThat(reply.status()).isEqualTo(200);
        assertThat(ids(page.getJsonArray("data"))).containsExactly("claude-sonnet-4", "claude-haiku-4");
        assertThat(page.getJsonArray("data").getJsonObject(0).getString("type")).isEqualTo("model");
        assertThat(page.getBoolean("has_more")).isTrue();
        assertThat(page.getString("first_id")).isEqualTo("claude-sonnet-4");
        assertThat(page.getString("last_id")).isEqualTo("claude-haiku-4");
    }

    @Test
    void anthropicsSdkListsEveryModelAcrossPages() {
        List<String> ids = StreamSupport.stream(anthropic.models().list(ModelListParams.builder().limit(3L).build()).autoPager().spliterator(), false)
                .map(ModelInfo::id).toList();

        assertThat(ids).containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini", "claude-opus-4-1");
    }

    @Test
    void anthropicsSdkListsTheFirstPageByDefault() {
        assertThat(anthropic.models().list().data()).extracting(ModelInfo::id)
                .containsExactly("claude-sonnet-4", "claude-haiku-4", "gpt-4o-mini", "claude-opus-4-1");
    }

    @Test
    void eachSdkRetrievesOneModelInItsOwnShape() {
        ModelInfo viaAnthropic = anthropic.models().retrieve("claude-haiku-4");
        Model viaOpenAi;
        OpenAIClient openAi = OpenAIOkHttpClient.builder().baseUrl(harness.gateway.baseUrl() + "/v1").apiKey("caller-key")
                .maxRetries(0).build();
        try {
            viaOpenAi = openAi.models().retrieve("claude-opus-4-1");
        } finally {
            openAi.close();
        }

        assertThat(viaAnthropic.id()).isEqualTo("claude-haiku-4");
        assertThat(viaOpenAi.id()).isEqualTo("claude-opus-4-1");
        assertThat(viaOpenAi.ownedBy()).isEqualTo("anthropic");
    }

    @Test
    void aModelTheGatewayDoesNotServeIsA404ModelNotFoundInTheCallersShape() {
        Reply openAi = harness.client.get("/v1/models/gpt-9");
        Reply anthropicShaped = harness.client.send(HttpMethod.GET, "/v1/models/gpt-9", Buffer.buffer(),
                Map.of("anthropic-version", "2023-06-01"));

        assertThat(openAi.status()).isEqualTo(404);
        assertThat(openAi.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(openAi.json().getJsonObject("error").getString("message")).contains("'gpt-9'", "GET /v1/models");
        assertThat(anthropicShaped.status()).isEqualTo(404);
        assertThat(anthropicShaped.json().getString("type")).isEqualTo("error");
    }

    @Test
    void anthropicsSdkCountsTokensWithTheLaddersCount() {
        long counted = anthropic.messages().countTokens(MessageCountTokensParams.builder()
                .model("claude-sonnet-4")
                .system("You are a careful coding agent.")
                .addUserMessage("Run the tests and tell me which one fails.")
                .build()).inputTokens();

        JsonObject same = new JsonObject().put("model", "claude-sonnet-4").put("max_tokens", 1)
                .put("system", "You are a careful coding agent.")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("content", "Run the tests and tell me which one fails.")));
        int ladder = TokenCounter.forModel("claude-sonnet-4-5")
                .countConversation(ConversationMapper.toConversation(Dialects.ANTHROPIC.parseRequest(same)));
        assertThat(counted).isEqualTo(ladder).isPositive();
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void countsAnOpenAiModelInItsOwnEncoding() {
        JsonObject body = new JsonObject().put("model", "gpt-4o-mini").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "hello world")));

        Reply reply = harness.client.post(TokenCountHandler.PATH, body);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getInteger("input_tokens")).isEqualTo(3 + (3 + 2));   // priming + framing + "hello world"
    }

    /** Regression: a count of a model the gateway does not serve was answered 200, where its request gets 404. */
    @Test
    void aCountForAModelTheGatewayDoesNotServeIsA404AsItsRequestWouldBe() {
        JsonObject body = new JsonObject().put("model", "llama-3.1-70b").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "hello world")));

        Reply count = harness.client.post(TokenCountHandler.PATH, body);
        Reply request = harness.client.post("/v1/messages", body.copy().put("max_tokens", 16));

        assertThat(count.status()).isEqualTo(404);
        assertThat(count.json().getString("type")).isEqualTo("error");
        assertThat(count.json().getJsonObject("error").getString("type")).isEqualTo("model_not_found");
        assertThat(count.json().getJsonObject("error").getString("message"))
                .isEqualTo(request.json().getJsonObject("error").getString("message")).contains("'llama-3.1-70b'");
        assertThat(request.status()).isEqualTo(404);
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aBodyThatIsNotJsonIsA400InAnthropicsShape() {
        Reply reply = harness.client.send(HttpMethod.POST, TokenCountHandler.PATH, Buffer.buffer("{not json"),
                Map.of("content-type", "application/json"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getString("type")).isEqualTo("error");
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("JSON object");
    }

    @Test
    void aRequestWithoutMessagesIsA400NamingTheField() {
        Reply reply = harness.client.post(TokenCountHandler.PATH, new JsonObject().put("model", "claude-sonnet-4"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("invalid_request");
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("messages");
    }

    private static List<String> ids(JsonArray data) {
        return data.stream().map(model -> ((JsonObject) model).getString("id")).toList();
    }
}
