package io.agentfuse.gateway.provider;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The provider mocks over loopback HTTP for the wire tests (the mocks' wire formats are proven by the
 * official SDKs in agentfuse-mock): a request the codecs write, posted as the gateway would, and the
 * answer read back by the codecs. Started before and stopped after each test.
 */
final class ProviderMocksOnTheWire implements BeforeEachCallback, AfterEachCallback {

    private static final ManualClock CLOCK = new ManualClock();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Vertx vertx;
    private MockProvider mock;

    @Override
    public void beforeEach(ExtensionContext context) {
        vertx = Vertx.vertx();
        mock = Await.result(MockProvider.start(vertx, "127.0.0.1", 0, MockCredentials.defaults()));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Await.result(mock.close());
        Await.result(vertx.close());
    }

    MockProvider mock() {
        return mock;
    }

    /** Starts the mocks again, with {@code credentials} (such as a shorter token lifetime). */
    void restart(MockCredentials credentials) {
        Await.result(mock.close());
        mock = Await.result(MockProvider.start(vertx, "127.0.0.1", 0, credentials));
    }

    static ChatRequest hello(boolean stream) {
        return Dialects.OPENAI.parseRequest(new JsonObject().put("model", "gpt-4.1").put("stream", stream)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")))
                .put("tools", new JsonArray().add(new JsonObject().put("type", "function").put("function",
                        new JsonObject().put("name", "lookup").put("parameters", new JsonObject().put("type", "object"))))));
    }

    static MockStep toolAnswer() {
        return MockStep.builder().text("Let me look.").toolCall("call_9", "lookup", new JsonObject().put("q", "x"))
                .inputTokens(11).outputTokens(5).build();
    }

    HttpResponse<byte[]> post(String pathAndQuery, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + pathAndQuery))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<byte[]> post(String pathAndQuery, Map<String, String> auth, JsonObject body) throws Exception {
        Map<String, String> headers = new HashMap<>(auth);
        headers.put("content-type", "application/json");
        return post(pathAndQuery, headers, body.encode().getBytes());
    }

    static ChatResponse read(Dialect dialect, HttpResponse<byte[]> answer) {
        assertThat(answer.statusCode()).as(new String(answer.body())).isEqualTo(200);
        return dialect.parseResponse(dialect.checkAnswer(Buffer.buffer(answer.body())), CLOCK);
    }

    static List<StreamEvent> sse(Dialect dialect, HttpResponse<byte[]> answer) {
        StreamDecoder decoder = dialect.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(event -> events.addAll(decoder.decode(event)));
        parser.feed(Buffer.buffer(answer.body()));
        parser.end();
        events.addAll(decoder.end());
        return events;
    }

    private static String text(List<StreamEvent> events) {
        return events.stream().filter(StreamEvent.TextDelta.class::isInstance).map(e -> ((StreamEvent.TextDelta) e).text())
                .reduce("", String::concat);
    }

    static void assertAnswerWithToolCall(ChatResponse answer) {
        assertThat(answer.content()).hasSize(2);
        assertThat(answer.content().get(0)).isEqualTo(new ContentPart.Text("Let me look."));
        ContentPart.ToolCall call = (ContentPart.ToolCall) answer.content().get(1);
        assertThat(call.name()).isEqualTo("lookup");
        assertThat(new JsonObject(call.arguments())).isEqualTo(new JsonObject().put("q", "x"));
        assertThat(answer.usage()).isEqualTo(Usage.of(11, 5));
    }

    static void assertStreamWithToolCall(List<StreamEvent> events) {
        assertThat(text(events)).isEqualTo("Let me look.");
        assertThat(events).anySatisfy(event -> assertThat(event).isInstanceOfSatisfying(StreamEvent.ToolCallStart.class,
                start -> assertThat(start.name()).isEqualTo("lookup")));
        assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(StreamEvent.Finish.class, finish -> {
            assertThat(finish.reason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(finish.usage()).isEqualTo(Usage.of(11, 5));
        });
    }
}
