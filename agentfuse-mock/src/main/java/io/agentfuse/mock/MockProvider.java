package io.agentfuse.mock;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server that fakes the providers the gateway speaks to, scriptable over HTTP, so that
 * the gateway's breakers, retries, timeouts and fallbacks can be shown and tested without real
 * providers: OpenAI ({@code POST /v1/chat/completions}, {@code POST /v1/responses}), Anthropic
 * ({@code POST /v1/messages}), Amazon Bedrock ({@code /model/{id}/converse}, {@code /converse-stream}),
 * the Gemini API ({@code /v1beta/models/{m}:generateContent}, ...), Vertex AI (Gemini and Anthropic
 * models, with its OAuth2 token endpoint) and Azure OpenAI ({@code /openai/v1/...}).
 *
 * <p>Each provider request takes the next {@link MockStep} (see {@link MockScript} for the
 * order: per model, per path, then shared queue) and is answered in its route's dialect,
 * streamed when the body says {@code "stream": true} or the path is a streaming one. When the
 * script is exhausted the default step answers (an immediate success unless changed). The Bedrock,
 * Gemini, Vertex and Azure routes first check what the real provider checks ({@link MockCredentials}:
 * SigV4 signatures, API keys, OAuth tokens the mock issued) and refuse like it, without taking a step;
 * the OpenAI, Responses and Anthropic routes refuse a request that carries no key at all ({@link ApiKeyCheck}).
 *
 * <p>Control API (JSON):
 * <ul>
 *   <li>{@code POST /_mock/script} — a list of steps, or
 *       {@code {"steps": [...], "model": "gpt-4o-mini"}} / {@code {"steps": [...], "path": "/v1/messages"}};
 *       appends them, answers {@code {"pending": n}}</li>
 *   <li>{@code POST /_mock/default} — one step, the answer once the script is exhausted</li>
 *   <li>{@code POST /_mock/reset} — clears the script, the default and the recorded requests</li>
 *   <li>{@code POST /_mock/vertex/serviceAccount} — {@code {"project": "p"}}: a new service account the
 *       Vertex mock trusts, answered as its credentials file</li>
 *   <li>{@code GET /_mock/requests} — {@code {"requests": [{method, path, headers, body, receivedAt,
 *       clientDisconnected}]}}, oldest first</li>
 * </ul>
 *
 * <p>Thread-safe. The Java methods ({@link #script}, {@link #requests()}, ...) do the same as the
 * control API, for tests in the same JVM.
 *
 * <pre>{@code
 * MockProvider mock = MockProvider.start(vertx, 0).await();
 * mock.script(MockStep.builder().status(529).times(2).build());
 * // ... point a provider at mock.anthropicBaseUrl() and call it ...
 * mock.close().await();
 * }</pre>
 */
public final class MockProvider {

    /** Path of the OpenAI Chat Completions endpoint. */
    public static final String OPENAI_PATH = "/v1/chat/completions";
    /** Path of the Anthropic Messages endpoint. */
    public static final String ANTHROPIC_PATH = "/v1/messages";
    /** Path of the OpenAI Responses endpoint. */
    public static final String RESPONSES_PATH = "/v1/responses";

    private final Vertx vertx;
    private final MockCredentials credentials;
    private final MockScript script = new MockScript();
    private final RequestJournal journal = new RequestJournal();
    private final MockDialect openAi = new OpenAiMockDialect();
    private final MockDialect anthropic = new AnthropicMockDialect();
    private final MockDialect responses = new ResponsesMockDialect();
    private final AtomicInteger connectionsAccepted = new AtomicInteger();
    private volatile MockHold hold = MockHold.none();
    private HttpServer server;

    private final VertexTokens vertexTokens;

    private MockProvider(Vertx vertx, MockCredentials credentials) {
        this.vertx = vertx;
        this.credentials = credentials;
        this.vertexTokens = new VertexTokens(credentials.vertexTokenLifetime(), Clock.systemUTC());
    }

    /** Starts a mock provider on {@code 127.0.0.1:port} ({@code 0} picks a free port). */
    public static Future<MockProvider> start(Vertx vertx, int port) {
        return start(vertx, "127.0.0.1", port);
    }

    /** Starts a mock provider on {@code host:port} ({@code 0} picks a free port), with the default credentials. */
    public static Future<MockProvider> start(Vertx vertx, String host, int port) {
        return start(vertx, host, port, MockCredentials.defaults());
    }

    /** Starts a mock provider on {@code host:port} that accepts {@code credentials} on its Bedrock, Gemini, Vertex and Azure routes. */
    public static Future<MockProvider> start(Vertx vertx, String host, int port, MockCredentials credentials) {
        Objects.requireNonNull(vertx, "vertx");
        MockProvider mock = new MockProvider(vertx, Objects.requireNonNull(credentials, "credentials"));
        return vertx.createHttpServer()
                .connectionHandler(connection -> mock.connectionsAccepted.incrementAndGet())
                .requestHandler(mock.router())
                .listen(port, host)
                .map(server -> {
                    mock.server = server;
                    return mock;
                });
    }

    /** The port the server listens on. */
    public int port() {
        return server.actualPort();
    }

    /** Base URL to configure for an {@code openai} provider ({@code http://127.0.0.1:PORT/v1}). */
    public String openAiBaseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /**
     * Base URL to configure for an {@code anthropic} provider ({@code http://127.0.0.1:PORT}); also the
     * endpoint of the {@code bedrock}, {@code gemini} and {@code vertex} mocks, whose paths are the real ones.
     */
    public String anthropicBaseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Base URL to configure for an {@code azure} provider ({@code http://127.0.0.1:PORT/openai/v1}). */
    public String azureBaseUrl() {
        return anthropicBaseUrl() + AzureMockRoutes.BASE_PATH;
    }

    /** The credentials the Bedrock, Gemini, Vertex and Azure routes accept. */
    public MockCredentials credentials() {
        return credentials;
    }

    /** The Vertex mock's OAuth2 token endpoint, the {@code token_uri} of its service accounts. */
    public String vertexTokenUri() {
        return anthropicBaseUrl() + VertexTokens.PATH;
    }

    /**
     * A new service account of {@code project}, with a fresh RSA key whose public half the Vertex
     * mock trusts from now on: its {@link MockServiceAccount#json()} is a credentials file whose
     * {@code token_uri} is this mock's.
     */
    public MockServiceAccount newVertexServiceAccount(String project) {
        MockServiceAccount account = MockServiceAccount.generate(project, vertexTokenUri());
        vertexTokens.trust(account);
        return account;
    }

    /** Makes every Vertex access token issued so far expired, as if their hour had passed. */
    public void expireVertexTokens() {
        vertexTokens.expireAll();
    }

    /** Appends steps to the shared queue. */
    public MockProvider script(MockStep... steps) {
        script.append(null, null, Arrays.asList(steps));
        return this;
    }

    /** Appends steps answered only to requests for {@code model}. */
    public MockProvider scriptForModel(String model, MockStep... steps) {
        script.append(Objects.requireNonNull(model, "model"), null, Arrays.asList(steps));
        return this;
    }

    /** Appends steps answered only to requests on {@code path}. */
    public MockProvider scriptForPath(String path, MockStep... steps) {
        script.append(null, Objects.requireNonNull(path, "path"), Arrays.asList(steps));
        return this;
    }

    /** Sets the answer given once the script is exhausted. */
    public MockProvider defaultStep(MockStep step) {
        script.defaultStep(step);
        return this;
    }

    /**
     * Holds every answer from now on, after its step's delay, until the hold is released: a test keeps
     * a call under way (a probe, say) for exactly as long as it needs, where a delay would be a guess.
     */
    public MockHold holdAnswers() {
        MockHold held = new MockHold();
        hold = held;
        return held;
    }

    /** How many scripted answers are still queued. */
    public int pendingSteps() {
        return script.pending();
    }

    /** The provider requests received so far, oldest first (control requests are not recorded). */
    public List<RecordedRequest> requests() {
        return journal.snapshot();
    }

    /** The requests received for the upstream model {@code upstreamModel} (the body's {@code model}), oldest first. */
    public List<RecordedRequest> requestsFor(String upstreamModel) {
        return requests().stream()
                .filter(request -> request.jsonBody().map(body -> upstreamModel.equals(body.getString("model"))).orElse(false)
                        || pathNames(request.path(), upstreamModel))
                .toList();
    }

    /** How many connections the mock has accepted since it started (a caller that reuses connections makes few). */
    public int connectionsAccepted() {
        return connectionsAccepted.get();
    }

    /** Forgets the script, the default step and the recorded requests. */
    public void reset() {
        script.reset();
        journal.clear();
    }

    /** Stops the server. */
    public Future<Void> close() {
        return server == null ? Future.succeededFuture() : server.close();
    }

    private Router router() {
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create(false));
        router.post(OPENAI_PATH).handler(ctx -> answer(ctx, openAi));
        router.post(ANTHROPIC_PATH).handler(ctx -> answer(ctx, anthropic));
        router.post(RESPONSES_PATH).handler(ctx -> answer(ctx, responses));
        new BedrockMockRoutes(this, new AwsSignatureCheck(credentials, Clock.systemUTC())).mount(router);
        new GeminiMockRoutes(this, credentials.geminiApiKey()).mount(router);
        new VertexMockRoutes(this, vertexTokens).mount(router);
        new AzureMockRoutes(this, credentials).mount(router);
        new MockControlApi(this, script, journal).mount(router);
        return router;
    }

    private void answer(RoutingContext ctx, MockDialect dialect) {
        RequestJournal.Entry entry = record(ctx);
        JsonObject noKey = dialect.missingKey(ctx.request().headers());
        if (noKey != null) {
            MockResponder.answerAtOnce(ctx.request(), 401, dialect.requestIdHeaders(), noKey);
            return;
        }
        JsonObject body = jsonBody(ctx);
        if (body == null) {
            MockResponder.answerAtOnce(ctx.request(), 400, Map.of(), dialect.error(400));
            return;
        }
        JsonObject unknown = dialect.unknownModel(body);
        if (unknown != null) {
            MockResponder.answerAtOnce(ctx.request(), 404, dialect.requestIdHeaders(), unknown);
            return;
        }
        JsonObject refusal = dialect.refusal(body, ctx.request().headers());
        if (refusal != null) {
            MockResponder.answerAtOnce(ctx.request(), 400, Map.of(), refusal);
            return;
        }
        JsonObject streamOptions = body.getValue("stream_options") instanceof JsonObject options ? options : new JsonObject();
        play(ctx, entry, dialect, new MockCall(body.getString("model", "mock-model"),
                Boolean.TRUE.equals(body.getValue("stream")), Boolean.TRUE.equals(streamOptions.getValue("include_usage"))));
    }

    /** Records a provider request as received, before it is checked. */
    RequestJournal.Entry record(RoutingContext ctx) {
        String text = ctx.body().asString();
        return journal.record(ctx.request(), text == null ? "" : text);
    }

    /** Answers a checked provider request with the next step of the script for its model and path. */
    void play(RoutingContext ctx, RequestJournal.Entry entry, MockDialect dialect, MockCall call) {
        new MockResponder(vertx, ctx.request(), dialect, entry, hold).answer(script.next(call.model(), ctx.request().path()), call);
    }

    /** The request's body as a JSON object, or {@code null} when it is not one by RFC 8259 ({@link MockJson}). */
    static JsonObject jsonBody(RoutingContext ctx) {
        return MockJson.object(ctx.body().asString());
    }

    /** Whether {@code path} names {@code model} as Bedrock, Gemini and Vertex do ({@code /model/M/…}, {@code /models/M:…}). */
    private static boolean pathNames(String path, String model) {
        String decoded = URLDecoder.decode(path, StandardCharsets.UTF_8);
        return decoded.contains("/model/" + model + "/") || decoded.contains("/models/" + model + ":");
    }
}
