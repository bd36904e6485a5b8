package io.agentfuse.gateway.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenAI-compatible Chat Completions provider on 127.0.0.1 whose model reasons before it answers,
 * as DeepSeek's reasoner (and vLLM, SGLang) stream it: after the role chunk, {@code reasoning_content}
 * deltas one per {@code step} for {@code steps} steps, then the answer's {@code content}, the finish,
 * a usage chunk and {@code [DONE]}. Its first {@code cuts} streamed requests are cut off half-way
 * through the reasoning (the connection closed), as a provider that falls over does. It refuses what
 * such an API refuses: a wrong bearer key (401) and a request without {@code model} or
 * {@code messages} (400).
 */
public final class ReasoningChatProvider {

    /** The key it accepts. */
    public static final String API_KEY = "sk-reasoner";
    /** The answer's text, after the reasoning. */
    public static final String ANSWER = "It is 42.";
    /** The text of each reasoning delta, numbered from 0. */
    public static final String REASONING = "Step %d. ";

    private final Vertx vertx;
    private final HttpServer server;
    private final int steps;
    private final Duration step;
    private final AtomicInteger cutsLeft;
    private final AtomicInteger requests = new AtomicInteger();

    private ReasoningChatProvider(Vertx vertx, HttpServer server, int steps, Duration step, int cuts) {
        this.vertx = vertx;
        this.server = server;
        this.steps = steps;
        this.step = step;
        this.cutsLeft = new AtomicInteger(cuts);
    }

    /** Starts one on a free port, reasoning in {@code steps} deltas one {@code step} apart, cutting its first {@code cuts} streams. */
    public static Future<ReasoningChatProvider> start(Vertx vertx, int steps, Duration step, int cuts) {
        HttpServer server = vertx.createHttpServer();
        ReasoningChatProvider provider = new ReasoningChatProvider(vertx, server, steps, step, cuts);
        return server.requestHandler(provider::handle).listen(0, "127.0.0.1").map(ignored -> provider);
    }

    public int port() {
        return server.actualPort();
    }

    /** How many requests it has answered, cut or refused. */
    public int requests() {
        return requests.get();
    }

    /** Cuts the next {@code cuts} streams half-way through their reasoning. */
    public void cutNext(int cuts) {
        cutsLeft.set(cuts);
    }

    public Future<Void> close() {
        return server.close();
    }

    private void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        request.body().onSuccess(bytes -> {
            HttpServerResponse response = request.response();
            if (!("Bearer " + API_KEY).equals(request.getHeader("authorization"))) {
                refuse(response, 401, "authentication_error", "Authentication Fails, Your api key is invalid");
                return;
            }
            JsonObject body = bytes.toJsonObject();
            if (body.getString("model") == null || !(body.getValue("messages") instanceof JsonArray)) {
                refuse(response, 400, "invalid_request_error", "model and messages are required");
                return;
            }
            if (!body.getBoolean("stream", false)) {
                refuse(response, 400, "invalid_request_error", "this provider only streams");
                return;
            }
            boolean cut = cutsLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
            response.setChunked(true).putHeader("content-type", "text/event-stream");
            chunk(response, body, new JsonObject().put("role", "assistant").put("content", ""), null);
            reason(request, body, 0, cut ? steps / 2 : -1);
        });
    }

    private void reason(HttpServerRequest request, JsonObject body, int done, int cutAt) {
        HttpServerResponse response = request.response();
        if (done == cutAt) {
            request.connection().close(); // fell over in the middle of its reasoning
            return;
        }
        if (done == steps) {
            chunk(response, body, new JsonObject().put("content", ANSWER), null);
            chunk(response, body, new JsonObject(), "stop");
            response.write("data: " + new JsonObject().put("id", "chatcmpl-reasoner").put("object", "chat.completion.chunk")
                    .put("created", 1).put("model", body.getString("model")).put("choices", new JsonArray())
                    .put("usage", new JsonObject().put("prompt_tokens", 11).put("completion_tokens", 30)
                            .put("total_tokens", 41)).encode() + "\n\n");
            response.end("data: [DONE]\n\n");
            return;
        }
        vertx.setTimer(step.toMillis(), id -> {
            chunk(response, body, new JsonObject().putNull("content").put("reasoning_content", REASONING.formatted(done)), null);
            reason(request, body, done + 1, cutAt);
        });
    }

    private static void chunk(HttpServerResponse response, JsonObject body, JsonObject delta, String finish) {
        response.write("data: " + new JsonObject().put("id", "chatcmpl-reasoner").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", body.getString("model")).put("choices", new JsonArray()
                        .add(new JsonObject().put("index", 0).put("delta", delta).put("finish_reason", finish))).encode() + "\n\n");
    }

    private static void refuse(HttpServerResponse response, int status, String type, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json").end(new JsonObject()
                .put("error", new JsonObject().put("message", message).put("type", type).putNull("param")
                        .put("code", type)).encode());
    }
}
