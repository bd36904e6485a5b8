package io.agentfuse.gateway.gemini;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's Gemini API over real HTTP, with what an SDK never sends: refusals in Google's shape
 * on every Gemini path, a stream without {@code alt=sse}, the {@code /v1/} forms, client keys in
 * Google's header and query parameter, a spent budget.
 */
class GeminiEndpointTest {

    private static final Map<String, String> JSON = Map.of("content-type", "application/json");

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG + """
                clients:
                  team-a: { key: "team-a-key", tenant: team-a }
                budgets:
                  small:
                    scope: tenant
                    tokens: 150
                    window: 1d
                """);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private static JsonObject ask(String text) {
        return new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                .put("parts", new JsonArray().add(new JsonObject().put("text", text)))));
    }

    private Reply post(String path, Buffer body, Map<String, String> headers) {
        return harness.client.send(HttpMethod.POST, path, body, headers);
    }

    private static Map<String, String> key(String key) {
        return Map.of("content-type", "application/json", "x-goog-api-key", key);
    }

    private static JsonObject error(Reply reply) {
        return reply.json().getJsonObject("error");
    }

    @Test
    void givenGooglesKeyHeaderWhenAModelAnswersThenTheAnswerIsGeminisWithTheGatewaysHeaders() {
        Reply reply = post("/v1beta/models/claude-haiku-4:generateContent", ask("Hi").toBuffer(), key("team-a-key"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("candidates").getJsonObject(0).getJsonObject("content").encode())
                .contains(MockStep.DEFAULT_TEXT);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-budget")).startsWith("small; scope=tenant;");
        assertThat(harness.mock.requests()).singleElement().satisfies(sent -> {
            assertThat(sent.headers()).doesNotContainKey("x-goog-api-key");
            assertThat(sent.body()).doesNotContain("team-a-key");
        });
    }

    @Test
    void givenTheKeyAsAQueryParameterWhenAModelAnswersThenItIsAcceptedAndNeverSentOn() {
        Reply reply = post("/v1beta/models/gpt-4o-mini:generateContent?key=team-a-key", ask("Hi").toBuffer(), JSON);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(harness.mock.requests()).singleElement()
                .satisfies(sent -> assertThat(sent.path()).doesNotContain("team-a-key"));
    }

    @Test
    void givenNoKeyOrAWrongOneWhenAGeminiPathIsAskedThenItIsA401InGooglesShapeThatNamesNoKey() {
        Reply none = post("/v1beta/models/gpt-4o-mini:generateContent", ask("Hi").toBuffer(), JSON);
        Reply wrong = post("/v1beta/models/gpt-4o-mini:generateContent?key=not-a-key", ask("Hi").toBuffer(), JSON);
        Reply list = harness.client.send(HttpMethod.GET, "/v1beta/models", Buffer.buffer(), Map.of("x-goog-api-key", "nope"));

        for (Reply reply : new Reply[] {none, wrong, list}) {
            assertThat(reply.status()).isEqualTo(401);
            assertThat(error(reply).getInteger("code")).isEqualTo(401);
            assertThat(error(reply).getString("status")).isEqualTo("UNAUTHENTICATED");
            assertThat(reply.body()).doesNotContain("not-a-key").doesNotContain("nope");
        }
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenAStreamWithAltSseWhenAModelAnswersThenTheEventsAreGeminisResponses() {
        StreamReply reply = harness.client.stream("/v1beta/models/gpt-4o-mini:streamGenerateContent?alt=sse",
                ask("Hi"), key("team-a-key"));

        assertThat(reply.status()).isEqualTo(200);
        String text = reply.events().stream().map(event -> new JsonObject(event.data()))
                .flatMap(chunk -> chunk.getJsonArray("candidates").stream())
                .map(candidate -> ((JsonObject) candidate).getJsonObject("content"))
                .filter(content -> content != null)
                .flatMap(content -> content.getJsonArray("parts").stream())
                .map(part -> ((JsonObject) part).getString("text", "")).reduce("", String::concat);
        assertThat(text).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(new JsonObject(reply.events().get(reply.events().size() - 1).data()).encode()).contains("\"finishReason\":\"STOP\"");
    }

    @Test
    void givenAStreamWithoutAltSseWhenItIsAskedThenItIsA400SayingToAddIt() {
        Reply reply = post("/v1beta/models/gpt-4o-mini:streamGenerateContent", ask("Hi").toBuffer(), key("team-a-key"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(error(reply).getString("status")).isEqualTo("INVALID_ARGUMENT");
        assertThat(error(reply).getString("message")).contains("alt=sse");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenTheV1FormOfAModelMethodWhenItIsAskedThenItIsServedLikeV1beta() {
        Reply reply = post("/v1/models/gpt-4o-mini:generateContent", ask("Hi").toBuffer(), key("team-a-key"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().containsKey("candidates")).isTrue();
    }

    @Test
    void givenBadJsonAnUnknownModelOrAnUnknownMethodWhenTheyAreAskedThenEachIsRefusedInGooglesShape() {
        Reply badJson = post("/v1beta/models/gpt-4o-mini:generateContent", Buffer.buffer("{\"contents\": ["), key("team-a-key"));
        Reply noContents = post("/v1beta/models/gpt-4o-mini:generateContent", Buffer.buffer("{}"), key("team-a-key"));
        Reply unknownModel = post("/v1beta/models/no-such-model:generateContent", ask("Hi").toBuffer(), key("team-a-key"));
        Reply unknownMethod = post("/v1beta/models/gpt-4o-mini:embedContent", ask("Hi").toBuffer(), key("team-a-key"));
        Reply unknownGet = harness.client.send(HttpMethod.GET, "/v1beta/models/no-such-model", Buffer.buffer(),
                Map.of("x-goog-api-key", "team-a-key"));

        assertThat(error(badJson).getString("status")).isEqualTo("INVALID_ARGUMENT");
        assertThat(error(noContents).getString("message")).contains("contents");
        assertThat(unknownModel.status()).isEqualTo(404);
        assertThat(error(unknownModel).getString("status")).isEqualTo("NOT_FOUND");
        assertThat(error(unknownModel).getString("message")).contains("no-such-model");
        assertThat(unknownMethod.status()).isEqualTo(404);
        assertThat(error(unknownMethod).getString("status")).isEqualTo("NOT_FOUND");
        assertThat(error(unknownGet).getInteger("code")).isEqualTo(404);
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenASpentBudgetWhenAGeminiCallerAsksThenItIsA429ResourceExhaustedWithTheBudgetHeader() {
        harness.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(140).build());
        assertThat(post("/v1beta/models/gpt-4o-mini:generateContent", ask("Hi").toBuffer(), key("team-a-key")).status())
                .isEqualTo(200);

        Reply refused = post("/v1beta/models/gpt-4o-mini:generateContent", ask("Hi").toBuffer(), key("team-a-key"));

        assertThat(refused.status()).isEqualTo(429);
        assertThat(error(refused).getInteger("code")).isEqualTo(429);
        assertThat(error(refused).getString("status")).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(refused.header("x-agentfuse-budget")).startsWith("small; scope=tenant; remaining=0;");
        assertThat(harness.mock.requests()).hasSize(1);
    }

    @Test
    void givenAGeminiCallersKeyWhenTheOpenAiModelListIsAskedThenItIsGeminisAndOtherwiseOpenAis() {
        Reply google = harness.client.send(HttpMethod.GET, "/v1/models", Buffer.buffer(), Map.of("x-goog-api-key", "team-a-key"));
        Reply openAi = harness.client.send(HttpMethod.GET, "/v1/models", Buffer.buffer(), Map.of("authorization", "Bearer team-a-key"));

        assertThat(google.json().getJsonArray("models").getJsonObject(0).getString("name")).isEqualTo("models/claude-sonnet-4");
        assertThat(openAi.json().getString("object")).isEqualTo("list");
    }

    @Test
    void givenMoreContentsThanServerMaxMessagesWhenAGeminiCallerAsksThenItIsRefusedBeforeAnyCall() {
        harness.close();
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("maxBodySize: 16KB", "maxBodySize: 16KB\n  maxMessages: 2"));
        JsonObject three = ask("one");
        three.getJsonArray("contents").add(new JsonObject().put("role", "model")
                .put("parts", new JsonArray().add(new JsonObject().put("text", "two"))));
        three.getJsonArray("contents").add(three.getJsonArray("contents").getJsonObject(0));

        Reply reply = post("/v1beta/models/gpt-4o-mini:generateContent", three.toBuffer(), JSON);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(error(reply).getString("message")).contains("server.maxMessages");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenAContentsBodyOrAWholeRequestWhenTokensAreCountedThenTheGatewayCountsBothAlike() {
        Reply contents = post("/v1beta/models/claude-haiku-4:countTokens", ask("How many tokens is this?").toBuffer(),
                key("team-a-key"));
        Reply whole = post("/v1beta/models/claude-haiku-4:countTokens", new JsonObject()
                .put("generateContentRequest", ask("How many tokens is this?").put("model", "models/claude-haiku-4"))
                .toBuffer(), key("team-a-key"));

        assertThat(contents.json().getInteger("totalTokens")).isPositive();
        assertThat(whole.json().getInteger("totalTokens")).isEqualTo(contents.json().getInteger("totalTokens"));
        assertThat(harness.mock.requests()).isEmpty();
    }

    /** Regression: a count of a model the gateway does not serve was answered 200, where its request gets 404. */
    @Test
    void givenAModelTheGatewayDoesNotServeWhenTokensAreCountedThenTheAnswerIsThe404OfItsRequest() {
        Reply count = post("/v1beta/models/llama-3.1-70b:countTokens", ask("How many tokens is this?").toBuffer(),
                key("team-a-key"));

        assertThat(count.status()).isEqualTo(404);
        assertThat(error(count).getString("message")).contains("'llama-3.1-70b'", "is not configured");
        assertThat(harness.mock.requests()).isEmpty();
    }

    /**
     * Regression: the routes match the normalised path, but the endpoint and the model list cut the
     * model out of the path as written, so a doubled slash or a dot segment was answered 404.
     */
    @Test
    void givenAMethodPathWrittenAnotherWayWhenAGeminiCallerAsksThenTheSameModelAnswers() {
        for (String spelling : new String[] {"//v1beta/models/gpt-4o-mini:generateContent",
                "/v1beta//models/gpt-4o-mini:generateContent", "/x/../v1beta/models/gpt-4o-mini:generateContent",
                "/v1beta/models/gpt-4o-mini%3AgenerateContent", "/%761beta/models/gpt%2d4o-mini:generateContent"}) {
            Reply reply = post(spelling, ask("Hi").toBuffer(), key("team-a-key"));
            assertThat(reply.status()).as(spelling + ": " + reply.body()).isEqualTo(200);
            assertThat(reply.header("x-agentfuse-model")).as(spelling).isEqualTo("gpt-4o-mini");
        }
    }

    /** Regression: the model list cut the model out of the path as written too. */
    @Test
    void givenAModelPathWrittenAnotherWayWhenItIsListedThenTheSameModelIsShown() {
        for (String spelling : new String[] {"//v1beta/models/gpt-4o-mini", "/v1beta/models//gpt-4o-mini",
                "/v1beta/models/x/../gpt-4o-mini", "/v1beta/%6dodels/gpt%2d4o-mini"}) {
            Reply reply = harness.client.send(HttpMethod.GET, spelling, Buffer.buffer(), Map.of("x-goog-api-key", "team-a-key"));
            assertThat(reply.status()).as(spelling + ": " + reply.body()).isEqualTo(200);
            assertThat(reply.json().getString("name")).as(spelling).isEqualTo("models/gpt-4o-mini");
        }
    }
}
