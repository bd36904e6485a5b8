package io.agentfuse.bench.gateway;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

class FixedAnswerUpstreamTest {

    private static final String CHAT = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private final HttpClient client = HttpClient.newHttpClient();
    private Vertx vertx;
    private String base;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        HttpServer server = new FixedAnswerUpstream().listen(vertx, 0).await();
        base = "http://127.0.0.1:" + server.actualPort();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void answersAChatCompletionWithUsage() throws Exception {
        HttpResponse<String> response = post("/v1/chat/completions");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).contains("application/json");
        assertThat(response.body())
                .contains("\"object\":\"chat.completion\"")
                .contains("\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":9,\"total_tokens\":17");
    }

    @Test
    void reportsTheInputOfALongConversationAsAProviderWould() throws Exception {
        String conversation = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "x".repeat(40_000) + "\"}]}";
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(conversation)).build(), HttpResponse.BodyHandlers.ofString());

        long tokens = conversation.length() / FixedAnswerUpstream.BYTES_PER_PROMPT_TOKEN;
        assertThat(response.body()).contains("\"usage\":{\"prompt_tokens\":" + tokens + ",\"completion_tokens\":9,"
                + "\"total_tokens\":" + (tokens + 9));
        assertThat(response.headers().firstValue("content-length")).contains(Integer.toString(response.body().length()));
    }

    @Test
    void countsTheCompletionsItServed() throws Exception {
        post("/v1/chat/completions");
        post("/v1/chat/completions");

        HttpResponse<String> counter = client.send(HttpRequest.newBuilder(URI.create(base + "/requests")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(counter.body()).isEqualTo("{\"requests\":2}");
    }

    @Test
    void streamsTwentyChunksThenDoneWhenAskedToStream() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(CHAT.replaceFirst("\\{", "{\"stream\":true,")))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.headers().firstValue("content-type")).contains("text/event-stream");
        assertThat(response.body().split("\n\n")).hasSize(FixedAnswerUpstream.STREAM_EVENTS + 1)
                .allMatch(event -> event.startsWith("data: "));
        assertThat(response.body()).contains("\"object\":\"chat.completion.chunk\"").endsWith("data: [DONE]\n\n");
    }

    @Test
    void answersTheLongConversationWithACompletion() throws Exception {
        String conversation = io.agentfuse.bench.workload.CodingAgentConversation.of(60).body("gpt-4o-mini").toString();

        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(conversation))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(conversation.length()).isBetween(140_000, 170_000);
        assertThat(response.body()).contains("\"object\":\"chat.completion\"");
    }

    @Test
    void answers404ElsewhereWithoutCountingIt() throws Exception {
        assertThat(post("/v1/messages").statusCode()).isEqualTo(404);

        HttpResponse<String> counter = client.send(HttpRequest.newBuilder(URI.create(base + "/requests")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(counter.body()).isEqualTo("{\"requests\":0}");
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(CHAT))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
