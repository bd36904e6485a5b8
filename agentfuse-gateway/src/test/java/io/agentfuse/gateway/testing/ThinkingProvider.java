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
 * An Anthropic Messages provider on 127.0.0.1 whose model thinks aloud before it answers, as Claude
 * does with extended thinking: a streamed answer opens with a thinking block whose deltas come one
 * per {@code step} for {@code steps} steps, then a text block, {@code message_delta} and
 * {@code message_stop}. It refuses what the Messages API refuses of such a request: a wrong
 * {@code x-api-key} (401), no {@code anthropic-version} (400), and thinking whose
 * {@code budget_tokens} is under 1 024 or not under {@code max_tokens} (400). A request that does
 * not ask for thinking is answered without it.
 */
public final class ThinkingProvider {

    /** The key it accepts. */
    public static final String API_KEY = "sk-ant-thinker";
    /** The answer's text, after the thinking. */
    public static final String ANSWER = "The answer is 42.";

    private final Vertx vertx;
    private final HttpServer server;
    private final int steps;
    private final Duration step;
    private final AtomicInteger requests = new AtomicInteger();

    private ThinkingProvider(Vertx vertx, HttpServer server, int steps, Duration step) {
        this.vertx = vertx;
        this.server = server;
        this.steps = steps;
        this.step = step;
    }

    /** Starts one on a free port, thinking in {@code steps} deltas one {@code step} apart. */
    public static Future<ThinkingProvider> start(Vertx vertx, int steps, Duration step) {
        HttpServer server = vertx.createHttpServer();
        ThinkingProvider provider = new ThinkingProvider(vertx, server, steps, step);
        return server.requestHandler(provider::handle).listen(0, "127.0.0.1").map(ignored -> provider);
    }

    public int port() {
        return server.actualPort();
    }

    /** How many requests it has answered or refused. */
    public int requests() {
        return requests.get();
    }

    public Future<Void> close() {
        return server.close();
    }

    private void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        request.body().onSuccess(bytes -> {
            HttpServerResponse response = request.response();
            if (!API_KEY.equals(request.getHeader("x-api-key"))) {
                refuse(response, 401, "authentication_error", "invalid x-api-key");
                return;
            }
            if (request.getHeader("anthropic-version") == null) {
                refuse(response, 400, "invalid_request_error", "anthropic-version: header is required");
                return;
            }
            JsonObject body = bytes.toJsonObject();
            JsonObject thinking = body.getJsonObject("thinking");
            boolean thinks = thinking != null && "enabled".equals(thinking.getString("type"));
            int budget = thinks ? thinking.getInteger("budget_tokens", 0) : 0;
            if (thinks && (budget < 1024 || budget >= body.getInteger("max_tokens", 0))) {
                refuse(response, 400, "invalid_request_error",
                        "thinking.budget_tokens: must be at least 1024 and less than max_tokens");
                return;
            }
            response.setChunked(true).putHeader("content-type", "text/event-stream");
            write(response, "message_start", new JsonObject().put("message", new JsonObject().put("id", "msg_thinker")
                    .put("type", "message").put("role", "assistant").put("model", body.getString("model"))
                    .put("content", new JsonArray()).put("stop_reason", (String) null)
                    .put("usage", new JsonObject().put("input_tokens", 12).put("output_tokens", 1))));
            if (thinks) {
                write(response, "content_block_start", new JsonObject().put("index", 0).put("content_block",
                        new JsonObject().put("type", "thinking").put("thinking", "").put("signature", "")));
                think(response, 0);
            } else {
                answer(response, 0);
            }
        });
    }

    private void think(HttpServerResponse response, int done) {
        if (done == steps) {
            write(response, "content_block_delta", new JsonObject().put("index", 0)
                    .put("delta", new JsonObject().put("type", "signature_delta").put("signature", "c2lnbmVk")));
            write(response, "content_block_stop", new JsonObject().put("index", 0));
            answer(response, 1);
            return;
        }
        vertx.setTimer(step.toMillis(), id -> {
            write(response, "content_block_delta", new JsonObject().put("index", 0)
                    .put("delta", new JsonObject().put("type", "thinking_delta").put("thinking", "Step " + done + ". ")));
            think(response, done + 1);
        });
    }

    private static void answer(HttpServerResponse response, int index) {
        write(response, "content_block_start", new JsonObject().put("index", index)
                .put("content_block", new JsonObject().put("type", "text").put("text", "")));
        write(response, "content_block_delta", new JsonObject().put("index", index)
                .put("delta", new JsonObject().put("type", "text_delta").put("text", ANSWER)));
        write(response, "content_block_stop", new JsonObject().put("index", index));
        write(response, "message_delta", new JsonObject().put("delta", new JsonObject().put("stop_reason", "end_turn"))
                .put("usage", new JsonObject().put("output_tokens", 40)));
        write(response, "message_stop", new JsonObject());
        response.end();
    }

    private static void write(HttpServerResponse response, String type, JsonObject data) {
        response.write("event: " + type + "\ndata: " + data.put("type", type).encode() + "\n\n");
    }

    private static void refuse(HttpServerResponse response, int status, String type, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json").end(new JsonObject()
                .put("type", "error").put("error", new JsonObject().put("type", type).put("message", message)).encode());
    }
}
