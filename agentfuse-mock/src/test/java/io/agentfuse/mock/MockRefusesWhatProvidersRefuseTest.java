package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock refuses what the providers refuse, so that a gateway that sends it is caught by a test:
 * JSON beyond RFC 8259 (a comment, a byte order mark) on every route, and in the Messages API no
 * messages, an empty message (but a final assistant one) and an empty text block, in Anthropic's words.
 */
class MockRefusesWhatProvidersRefuseTest extends RunningMock {

    private static final String OPENAI_BODY = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private final HttpClient http = HttpClient.newHttpClient();
    private HttpResponse<String> post(String url, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .header("authorization", "Bearer sk-test").header("x-api-key", "sk-test")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> openAi(String body) throws Exception {
        return post(mock.openAiBaseUrl() + "/chat/completions", body.getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> anthropic(JsonArray messages) throws Exception {
        JsonObject body = new JsonObject().put("model", "claude-haiku-4-5").put("max_tokens", 10).put("messages", messages);
        return post(mock.anthropicBaseUrl() + MockProvider.ANTHROPIC_PATH, body.encode().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void givenACommentOrAByteOrderMarkThenTheBodyIsRefused() throws Exception {
        byte[] json = OPENAI_BODY.getBytes(StandardCharsets.UTF_8);
        byte[] marked = new byte[json.length + 3];
        marked[0] = (byte) 0xEF;
        marked[1] = (byte) 0xBB;
        marked[2] = (byte) 0xBF;
        System.arraycopy(json, 0, marked, 3, json.length);

        assertThat(openAi("/*c*/" + OPENAI_BODY).statusCode()).isEqualTo(400);
        assertThat(openAi(OPENAI_BODY.replace(",", ",\n// x\n")).statusCode()).isEqualTo(400);
        assertThat(post(mock.openAiBaseUrl() + "/chat/completions", marked).statusCode()).isEqualTo(400);
        assertThat(openAi(OPENAI_BODY).statusCode()).isEqualTo(200);
    }

    @Test
    void givenEmptyContentThenTheMessagesApiRefusesItInItsWords() throws Exception {
        JsonObject user = new JsonObject().put("role", "user").put("content", "hi");
        JsonArray emptyBlock = new JsonArray().add(new JsonObject().put("type", "text").put("text", ""));
        List<Object[]> refused = List.of(
                new Object[] {new JsonArray(), "messages: at least one message is required"},
                new Object[] {new JsonArray().add(new JsonObject().put("role", "user").put("content", "")),
                        "messages.0: all messages must have non-empty content except for the optional final assistant message"},
                new Object[] {new JsonArray().add(user).add(new JsonObject().put("role", "assistant").put("content", new JsonArray()))
                        .add(user), "messages.1: all messages must have non-empty content"},
                new Object[] {new JsonArray().add(new JsonObject().put("role", "user").put("content", emptyBlock)),
                        "messages: text content blocks must be non-empty"});
        for (Object[] each : refused) {
            HttpResponse<String> answer = anthropic((JsonArray) each[0]);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
            JsonObject error = new JsonObject(answer.body());
            assertThat(error.getString("type")).isEqualTo("error");
            assertThat(error.getJsonObject("error").getString("type")).isEqualTo("invalid_request_error");
            assertThat(error.getJsonObject("error").getString("message")).startsWith((String) each[1]);
        }
        HttpResponse<String> emptyPrefill = anthropic(new JsonArray().add(user)
                .add(new JsonObject().put("role", "assistant").put("content", "")));
        assertThat(emptyPrefill.statusCode()).as(emptyPrefill.body()).isEqualTo(200);
    }

    @Test
    void givenABodyNestedNearlyAsDeepAsJsonIsReadThenTheJournalStillAnswers() throws Exception {
        String deep = "[".repeat(998) + "]".repeat(998);
        openAi(OPENAI_BODY.replace("}]}", "}],\"x\":" + deep + "}"));
        openAi(OPENAI_BODY);

        HttpResponse<String> journal = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + "/_mock/requests"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(journal.statusCode()).as(journal.body()).isEqualTo(200);
        JsonArray requests = new JsonObject(journal.body()).getJsonArray("requests");
        assertThat(requests).hasSize(2);
        assertThat(requests.getJsonObject(0).getString("body")).endsWith("]}"); // served as its text
        assertThat(requests.getJsonObject(1).getJsonObject("body").getString("model")).isEqualTo("gpt-4o-mini");
    }
}
