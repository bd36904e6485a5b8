package io.agentfuse.mock;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server that fakes both an OpenAI ({@code POST /v1/chat/completions} and
 * {@code POST /v1/responses}) and an Anthropic ({@code POST /v1/messages}) upstream,
 * scriptable over HTTP, so that the gateway's breakers, retries, timeouts and fallbacks can be
 * shown and tested without real providers.
 *
 * <p>Each provider request takes the next {@link MockStep} (see {@link MockScript} for the
 * order: per model, per path, then shared queue) and is answered in its path's dialect,
 * streamed as SSE when the body says {@code "stream": true}. When the script is exhausted the
 * default step answers (an immediate success unless changed).
 *
 * <p>Control API (JSON):
 * <ul>
 *   <li>{@code POST /_mock/script} — a list of steps, or
 *       {@code {"steps": [...], "model": "gpt-4o-mini"}} / {@code {"steps": [...], "path": "/v1/messages"}};
 *       appends them, answers {@code {"pending": n}}</li>
 *   <li>{@code POST /_mock/default} — one step, the answer once the script is exhausted</li>
 *   <li>{@code POST /_mock/reset} — clears the script, the default and the recorded requests</li>
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
    private final MockScript script = new MockScript();
    private final RequestJournal journal = new RequestJournal();
    private final MockDialect openAi = new OpenAiMockDialect();
    private final MockDialect anthropic = new AnthropicMockDialect();
    private final MockDialect responses = new ResponsesMockDialect();
    private final AtomicInteger connectionsAccepted = new AtomicInteger();
    private HttpServer server;

    private MockProvider(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Starts a mock provider on {@code 127.0.0.1:port} ({@code 0} picks a free port). */
    public static Future<MockProvider> start(Vertx vertx, int port) {
        return start(vertx, "127.0.0.1", port);
    }

    /** Starts a mock provider on {@code host:port} ({@code 0} picks a free port). */
    public static Future<MockProvider> start(Vertx vertx, String host, int port) {
        Objects.requireNonNull(vertx, "vertx");
        MockProvider mock = new MockProvider(vertx);
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

    /** Base URL to configure for an {@code anthropic} provider ({@code http://127.0.0.1:PORT}). */
    public String anthropicBaseUrl() {
        return "http://127.0.0.1:" + port();
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
                .filter(request -> request.jsonBody().map(body -> upstreamModel.equals(body.getString("model"))).orElse(false))
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
        router.post("/_mock/script").handler(this::appendScript);
        router.post("/_mock/default").handler(ctx -> control(ctx, () -> {
            script.defaultStep(MockStep.fromJson(ctx.body().asJsonObject()));
            return new JsonObject().put("pending", script.pending());
        }));
        router.post("/_mock/reset").handler(ctx -> control(ctx, () -> {
            reset();
            return new JsonObject().put("pending", 0);
        }));
        router.get("/_mock/requests").handler(ctx -> control(ctx, () -> new JsonObject()
                .put("requests", new JsonArray(journal.snapshot().stream().map(RecordedRequest::toJson).toList()))));
        return router;
    }

    private void answer(RoutingContext ctx, MockDialect dialect) {
        String text = ctx.body().asString();
        RequestJournal.Entry entry = journal.record(ctx.request(), text == null ? "" : text);
        MockResponder responder = new MockResponder(vertx, ctx.request(), dialect, entry);
        JsonObject body;
        try {
            body = Json.decodeValue(text == null ? "" : text) instanceof JsonObject json ? json : null;
        } catch (DecodeException e) {
            body = null;
        }
        if (body == null) {
            ctx.response().setStatusCode(400).putHeader("content-type", "application/json")
                    .end(dialect.error(400).encode());
            return;
        }
        responder.answer(script.next(body.getString("model"), ctx.request().path()), body);
    }

    private void appendScript(RoutingContext ctx) {
        control(ctx, () -> {
            Object parsed = Json.decodeValue(ctx.body().buffer());
            JsonArray steps;
            String model = null;
            String path = null;
            if (parsed instanceof JsonArray array) {
                steps = array;
            } else if (parsed instanceof JsonObject object) {
                steps = object.getJsonArray("steps");
                model = object.getString("model");
                path = object.getString("path");
                if (steps == null) {
                    throw new IllegalArgumentException("a script object needs a 'steps' list");
                }
            } else {
                throw new IllegalArgumentException("a script is a list of steps or {\"steps\": [...]}");
            }
            List<MockStep> parsedSteps = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                if (!(steps.getValue(i) instanceof JsonObject step)) {
                    throw new IllegalArgumentException("steps[" + i + "] must be a JSON object");
                }
                parsedSteps.add(MockStep.fromJson(step));
            }
            script.append(model, path, parsedSteps);
            return new JsonObject().put("pending", script.pending());
        });
    }

    private static void control(RoutingContext ctx, ControlAction action) {
        JsonObject answer;
        try {
            answer = action.run();
        } catch (IllegalArgumentException | ClassCastException | DecodeException | NullPointerException e) {
            ctx.response().setStatusCode(400).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", String.valueOf(e.getMessage())).encode());
            return;
        }
        ctx.response().putHeader("content-type", "application/json").end(answer.encode());
    }

    @FunctionalInterface
    private interface ControlAction {
        JsonObject run();
    }
}
