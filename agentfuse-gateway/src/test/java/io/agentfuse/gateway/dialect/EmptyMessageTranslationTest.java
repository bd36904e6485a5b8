package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An empty message is never left out on its way to Anthropic, Bedrock or Gemini, which refuse empty content:
 * leaving it out changed what the model was asked ({@code [user, assistant "ok", user ""]} went as a
 * prefill that the model continued, {@code [user ""]} as no message at all). The step is
 * untranslatable, naming the caller's field: the request is refused 400 {@code invalid_request} when
 * no step is left, and served by a step that takes it when one is. An empty text beside other content,
 * and an empty final assistant turn (an empty prefill), still cross: the question is the same.
 */
class EmptyMessageTranslationTest {

    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "%s" }
            """.formatted(MockCredentials.GEMINI_API_KEY) + GatewayHarness.BEDROCK_PROVIDER + """
            retry: { maxAttempts: 1 }
            models:
              claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
              gpt-4o-mini: { provider: openai }
              gemini-flash: { provider: gemini, upstreamModel: gemini-2.5-flash }
              claude-or-gpt: { provider: anthropic, upstreamModel: claude-haiku-4-5, fallbacks: [gpt-4o-mini] }
            """;
    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.startWithAwsKeys(CONFIG);
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @BeforeEach
    void forget() {
        harness.mock.reset();
    }

    private static JsonObject message(String role, Object content) {
        return new JsonObject().put("role", role).put("content", content);
    }

    private static JsonArray emptyPart() {
        return new JsonArray().add(new JsonObject().put("type", "text").put("text", ""));
    }

    static Stream<Arguments> emptyMessages() {
        JsonArray lastEmpty = new JsonArray().add(message("user", "first")).add(message("assistant", "ok")).add(message("user", ""));
        JsonArray onlyEmpty = new JsonArray().add(message("user", ""));
        JsonArray emptyPart = new JsonArray().add(message("system", "Be brief.")).add(message("user", emptyPart()));
        JsonArray assistantEmpty = new JsonArray().add(message("user", "first")).add(message("assistant", ""))
                .add(message("user", "second"));
        return Stream.of("claude-haiku-4", "claude-on-bedrock", "gemini-flash").flatMap(model -> Stream.of(
                Arguments.of(model, "/v1/chat/completions", new JsonObject().put("messages", lastEmpty), "messages[2].content"),
                Arguments.of(model, "/v1/chat/completions", new JsonObject().put("messages", onlyEmpty), "messages[0].content"),
                Arguments.of(model, "/v1/chat/completions", new JsonObject().put("messages", emptyPart), "messages[1].content"),
                Arguments.of(model, "/v1/chat/completions", new JsonObject().put("messages", assistantEmpty), "messages[1].content"),
                Arguments.of(model, "/v1/responses", new JsonObject().put("input", ""), "input")));
    }

    @ParameterizedTest(name = "{0} {1} {3}")
    @MethodSource("emptyMessages")
    void givenAnEmptyMessageAndNoOtherStepThenTheCallerIsToldWhichAndNothingIsSent(String model, String path,
                                                                                   JsonObject body, String field) {
        Reply reply = harness.client.post(path, body.put("model", model), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).contains(field + " has no content");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenAnEmptyLastMessageThenTheStepThatTakesItAnswersIt() {
        harness.mock.script(MockStep.builder().text("an answer").build());
        JsonArray messages = new JsonArray().add(message("user", "first")).add(message("assistant", "ok")).add(message("user", ""));

        Reply reply = harness.client.post("/v1/chat/completions",
                new JsonObject().put("model", "claude-or-gpt").put("messages", messages), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-fallbacks")).contains("untranslatable");
        assertThat(harness.mock.requests()).hasSize(1);
        JsonObject sent = harness.mock.requests().get(0).jsonBody().orElseThrow();
        assertThat(sent.getString("model")).isEqualTo("gpt-4o-mini");
        assertThat(sent.getJsonArray("messages")).isEqualTo(messages);
    }

    @Test
    void givenAnEmptyTextBesideOtherContentOrAnEmptyFinalAssistantTurnThenAnthropicIsAskedTheSameQuestion() {
        harness.mock.script(MockStep.builder().text("an answer").build());
        JsonArray messages = new JsonArray()
                .add(message("user", emptyPart().add(new JsonObject().put("type", "text").put("text", "the question"))))
                .add(message("assistant", ""));

        Reply reply = harness.client.post("/v1/chat/completions",
                new JsonObject().put("model", "claude-haiku-4").put("messages", messages), Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonArray sent = harness.mock.requests().get(0).jsonBody().orElseThrow().getJsonArray("messages");
        assertThat(sent).isEqualTo(new JsonArray().add(message("user",
                new JsonArray().add(new JsonObject().put("type", "text").put("text", "the question")))));
    }
}
