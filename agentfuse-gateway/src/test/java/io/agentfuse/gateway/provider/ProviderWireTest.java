package io.agentfuse.gateway.provider;

import com.google.api.client.http.javanet.NetHttpTransport;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.azure.AzureDialect;
import io.agentfuse.gateway.provider.bedrock.BedrockDialect;
import io.agentfuse.gateway.provider.bedrock.BedrockErrors;
import io.agentfuse.gateway.provider.bedrock.BedrockEventStreamReader;
import io.agentfuse.gateway.provider.bedrock.BedrockRequestSigner;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.agentfuse.gateway.provider.vertex.VertexAccessTokens;
import io.agentfuse.gateway.provider.vertex.VertexAnthropicDialect;
import io.agentfuse.gateway.provider.vertex.VertexEndpoint;
import io.agentfuse.gateway.provider.vertex.VertexGeminiDialect;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The provider codecs, the SigV4 signer and the service-account tokens against the provider mocks
 * over loopback HTTP (the mocks' wire formats are proven by the official SDKs in agentfuse-mock): what
 * the writers send, the mocks accept, and what the mocks answer, the codecs read.
 */
class ProviderWireTest {

    private static final ManualClock CLOCK = new ManualClock();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ExecutorService tokenWorker = Executors.newSingleThreadExecutor();
    private Vertx vertx;
    private MockProvider mock;

    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        mock = Await.result(MockProvider.start(vertx, "127.0.0.1", 0, MockCredentials.defaults()));
    }

    @AfterEach
    void stop() {
        tokenWorker.shutdownNow();
        Await.result(mock.close());
        Await.result(vertx.close());
    }

    private static ChatRequest hello(boolean stream) {
        return Dialects.OPENAI.parseRequest(new JsonObject().put("model", "gpt-4.1").put("stream", stream)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")))
                .put("tools", new JsonArray().add(new JsonObject().put("type", "function").put("function",
                        new JsonObject().put("name", "lookup").put("parameters", new JsonObject().put("type", "object"))))));
    }

    private static MockStep toolAnswer() {
        return MockStep.builder().text("Let me look.").toolCall("call_9", "lookup", new JsonObject().put("q", "x"))
                .inputTokens(11).outputTokens(5).build();
    }

    private HttpResponse<byte[]> post(String pathAndQuery, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mock.anthropicBaseUrl() + pathAndQuery))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> post(String pathAndQuery, Map<String, String> auth, JsonObject body) throws Exception {
        Map<String, String> headers = new HashMap<>(auth);
        headers.put("content-type", "application/json");
        return post(pathAndQuery, headers, body.encode().getBytes());
    }

    private static ChatResponse read(Dialect dialect, HttpResponse<byte[]> answer) {
        assertThat(answer.statusCode()).as(new String(answer.body())).isEqualTo(200);
        return dialect.parseResponse(dialect.checkAnswer(Buffer.buffer(answer.body())), CLOCK);
    }

    private static List<StreamEvent> sse(Dialect dialect, HttpResponse<byte[]> answer) {
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

    private static void assertAnswerWithToolCall(ChatResponse answer) {
        assertThat(answer.content()).hasSize(2);
        assertThat(answer.content().get(0)).isEqualTo(new ContentPart.Text("Let me look."));
        ContentPart.ToolCall call = (ContentPart.ToolCall) answer.content().get(1);
        assertThat(call.name()).isEqualTo("lookup");
        assertThat(new JsonObject(call.arguments())).isEqualTo(new JsonObject().put("q", "x"));
        assertThat(answer.usage()).isEqualTo(Usage.of(11, 5));
    }

    private static void assertStreamWithToolCall(List<StreamEvent> events) {
        assertThat(text(events)).isEqualTo("Let me look.");
        assertThat(events).anySatisfy(event -> assertThat(event).isInstanceOfSatisfying(StreamEvent.ToolCallStart.class,
                start -> assertThat(start.name()).isEqualTo("lookup")));
        assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(StreamEvent.Finish.class, finish -> {
            assertThat(finish.reason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(finish.usage()).isEqualTo(Usage.of(11, 5));
        });
    }

    // ---- Bedrock ----

    private HttpResponse<byte[]> converse(BedrockRequestSigner signer, boolean stream) throws Exception {
        String path = BedrockDialect.INSTANCE.upstreamPath("anthropic.claude-sonnet-4-5-v1:0", stream);
        byte[] body = BedrockDialect.INSTANCE.writeRequest(hello(stream), "ignored").encode().getBytes();
        Map<String, String> headers = new HashMap<>(Map.of("content-type", "application/json"));
        headers.putAll(signer.sign("POST", URI.create(mock.anthropicBaseUrl() + path), headers, body).get(30, TimeUnit.SECONDS));
        return post(path, headers, body);
    }

    private static BedrockRequestSigner mockKeys() {
        return BedrockRequestSigner.staticKeys("us-east-1", MockCredentials.AWS_ACCESS_KEY_ID, MockCredentials.AWS_SECRET_ACCESS_KEY, null);
    }

    @Test
    void aConverseRequestSignedByTheSignerIsAnsweredAndTheAnswerReadByTheCodec() throws Exception {
        mock.script(toolAnswer());

        assertAnswerWithToolCall(read(BedrockDialect.INSTANCE, converse(mockKeys(), false)));
        assertThat(mock.requestsFor("anthropic.claude-sonnet-4-5-v1:0")).hasSize(1);
    }

    @Test
    void aConverseStreamIsReadFromItsBinaryFramesIntoNeutralEvents() throws Exception {
        mock.script(toolAnswer());

        HttpResponse<byte[]> answer = converse(mockKeys(), true);
        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        byte[] bytes = answer.body();
        for (int start = 0; start < bytes.length; start += 13) { // any cut between reads
            reader.read(Buffer.buffer(bytes).slice(start, Math.min(bytes.length, start + 13))).forEach(e -> events.addAll(decoder.decode(e)));
        }

        assertThat(answer.headers().firstValue("content-type")).contains(BedrockDialect.EVENT_STREAM);
        assertThat(reader.atFrameBoundary()).isTrue();
        assertStreamWithToolCall(events);
    }

    @Test
    void aThrottlingExceptionInsideTheStreamIsTheProvidersErrorAndRateLimited() throws Exception {
        mock.script(MockStep.builder().streamError(429).streamErrorAfterChunks(1).build());

        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        reader.read(Buffer.buffer(converse(mockKeys(), true).body())).forEach(e -> events.addAll(decoder.decode(e)));

        StreamEvent.Error error = (StreamEvent.Error) events.get(events.size() - 1);
        assertThat(error.type()).isEqualTo("ThrottlingException");
        assertThat(BedrockDialect.INSTANCE.streamErrorOutcome(error.type())).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void aSignatureMadeWithAnotherSecretIsRefusedWithBedrocksException() throws Exception {
        HttpResponse<byte[]> refused = converse(BedrockRequestSigner.staticKeys("us-east-1", MockCredentials.AWS_ACCESS_KEY_ID,
                "not-the-secret", null), false);

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(BedrockErrors.exception(refused.headers().firstValue("x-amzn-ErrorType").orElse(null), new String(refused.body())))
                .isEqualTo("InvalidSignatureException");
    }

    @Test
    void aScriptedModelNotReadyExceptionIsOverloaded() throws Exception {
        mock.script(MockStep.builder().status(429).errorType("ModelNotReadyException").build());

        HttpResponse<byte[]> answer = converse(mockKeys(), false);

        assertThat(BedrockDialect.INSTANCE.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap()
                .add("x-amzn-ErrorType", answer.headers().firstValue("x-amzn-ErrorType").orElse("")), new String(answer.body()))).isEqualTo(Outcome.OVERLOADED);
    }

    // ---- Gemini ----

    @Test
    void aGeminiBodyIsAnsweredCompleteAndStreamedAndReadByTheCodec() throws Exception {
        Map<String, String> key = GeminiDialect.INSTANCE.authHeaders(MockCredentials.GEMINI_API_KEY);
        mock.script(toolAnswer(), toolAnswer());

        ChatResponse complete = read(GeminiDialect.INSTANCE, post(GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", false),
                key, GeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro")));
        List<StreamEvent> streamed = sse(GeminiDialect.INSTANCE, post(GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", true),
                key, GeminiDialect.INSTANCE.writeRequest(hello(true), "gemini-2.5-pro")));

        assertAnswerWithToolCall(complete);
        assertThat(complete.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertStreamWithToolCall(streamed);
    }

    @Test
    void aGeminiOverloadIsOverloadedAndAWrongKeyIsAnAuthFailure() throws Exception {
        mock.script(MockStep.builder().status(503).build());
        String path = GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", false);
        JsonObject body = GeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro");

        HttpResponse<byte[]> overloaded = post(path, GeminiDialect.INSTANCE.authHeaders(MockCredentials.GEMINI_API_KEY), body);
        HttpResponse<byte[]> wrongKey = post(path, GeminiDialect.INSTANCE.authHeaders("wrong"), body);

        assertThat(GeminiDialect.INSTANCE.errorOutcome(overloaded.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(overloaded.body())))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(io.agentfuse.gateway.provider.gemini.GeminiErrors.isAuthFailure(wrongKey.statusCode(), new String(wrongKey.body())))
                .isTrue();
    }

    // ---- Vertex ----

    private VertexAccessTokens serviceAccount(String project) throws Exception {
        Path file = dir.resolve(project + ".json");
        Files.writeString(file, mock.newVertexServiceAccount(project).json().encodePrettily());
        return VertexAccessTokens.fromServiceAccountFile(file, NetHttpTransport::new); // direct: no proxy here
    }

    private Map<String, String> bearer(Dialect dialect, VertexAccessTokens tokens) throws Exception {
        return dialect.authHeaders(tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS));
    }

    private long tokenRequests() {
        return mock.requests().stream().filter(request -> request.path().equals("/oauth2/token")).count();
    }

    @Test
    void geminiAndClaudeOnVertexAreCalledWithTheServiceAccountsTokenAndReadByTheCodecs() throws Exception {
        VertexAccessTokens tokens = serviceAccount("my-project");
        VertexEndpoint endpoint = new VertexEndpoint("my-project", "us-east5");
        mock.script(toolAnswer(), toolAnswer(), toolAnswer());

        ChatResponse gemini = read(VertexGeminiDialect.INSTANCE, post(endpoint.modelPath("gemini-2.5-pro", false),
                bearer(VertexGeminiDialect.INSTANCE, tokens), VertexGeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro")));
        ChatResponse claude = read(VertexAnthropicDialect.INSTANCE, post(endpoint.modelPath("claude-sonnet-4-5@20250929", false),
                bearer(VertexAnthropicDialect.INSTANCE, tokens), VertexAnthropicDialect.INSTANCE.writeRequest(hello(false), "claude")));
        List<StreamEvent> claudeStream = sse(VertexAnthropicDialect.INSTANCE, post(endpoint.modelPath("claude-sonnet-4-5@20250929", true),
                bearer(VertexAnthropicDialect.INSTANCE, tokens), VertexAnthropicDialect.INSTANCE.writeRequest(hello(true), "claude")));

        assertAnswerWithToolCall(gemini);
        assertAnswerWithToolCall(claude);
        assertStreamWithToolCall(claudeStream);
        assertThat(tokenRequests()).as("one token serves every call while it lives").isEqualTo(1);
    }

    @Test
    void aTokenTooCloseToItsEndIsReplacedBeforeItIsUsed() throws Exception {
        Await.result(mock.close());
        mock = Await.result(MockProvider.start(vertx, "127.0.0.1", 0, MockCredentials.defaults()
                .withVertexTokenLifetime(Duration.ofMinutes(2))));
        VertexAccessTokens tokens = serviceAccount("my-project");

        String first = tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS);
        String second = tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS);

        assertThat(second).isNotEqualTo(first);
        assertThat(tokenRequests()).isEqualTo(2);
    }

    @Test
    void vertexsQuotaErrorIsRateLimited() throws Exception {
        VertexAccessTokens tokens = serviceAccount("my-project");
        mock.script(MockStep.builder().status(429).build());

        HttpResponse<byte[]> answer = post(new VertexEndpoint("my-project", "us-east5").modelPath("gemini-2.5-pro", false),
                bearer(VertexGeminiDialect.INSTANCE, tokens), VertexGeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro"));

        assertThat(VertexGeminiDialect.INSTANCE.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(answer.body())))
                .isEqualTo(Outcome.RATE_LIMITED);
    }

    // ---- Azure ----

    @Test
    void azuresChatIsAnsweredAndStreamedAndItsStreamStartsWithTheProvidersId() throws Exception {
        Map<String, String> key = AzureDialect.CHAT.authHeaders(MockCredentials.AZURE_API_KEY);
        mock.script(toolAnswer(), toolAnswer());

        ChatResponse complete = read(AzureDialect.CHAT, post("/openai/v1" + AzureDialect.CHAT.upstreamPath("preview"), key,
                AzureDialect.CHAT.writeRequest(hello(false), "gpt-4.1-deployment")));
        List<StreamEvent> streamed = sse(AzureDialect.CHAT, post("/openai/v1" + AzureDialect.CHAT.upstreamPath(null), key,
                AzureDialect.CHAT.sameDialectRequest(ChatRequest.shallowCopy(hello(true).received()), "gpt-4.1-deployment", true)));

        assertAnswerWithToolCall(complete);
        assertThat(((StreamEvent.Start) streamed.get(0)).id()).startsWith("chatcmpl-");
        assertStreamWithToolCall(streamed);
    }

    @Test
    void azuresRateLimitIsRateLimitedWithARetryAfter() throws Exception {
        mock.script(MockStep.builder().status(429).build());

        HttpResponse<byte[]> answer = post("/openai/v1/chat/completions", AzureDialect.CHAT.entraAuthHeaders(MockCredentials.AZURE_AD_TOKEN),
                AzureDialect.CHAT.writeRequest(hello(false), "gpt-4.1-deployment"));

        assertThat(answer.headers().firstValue("retry-after")).contains("1");
        assertThat(AzureDialect.CHAT.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(answer.body()))).isEqualTo(Outcome.RATE_LIMITED);
    }
}
