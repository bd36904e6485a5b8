package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.function.BiConsumer;

/**
 * A real HTTP server on 127.0.0.1, on its own Vert.x instance, whose every {@code POST} is answered
 * by the test's own code with the JSON-RPC message it received: for the answers a well-behaved mock
 * never gives (an event too large, a stream left open, a reset in mid-answer, a trickle).
 * {@code GET} and {@code DELETE} requests go to {@link #otherMethods}, 405 by default.
 */
final class HandWrittenMcpServer implements AutoCloseable {

    final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private volatile Handler<HttpServerRequest> otherMethods = request -> request.response().setStatusCode(405).end();

    private HandWrittenMcpServer(BiConsumer<HttpServerRequest, JsonObject> posts) {
        server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            if (request.method() != HttpMethod.POST) {
                otherMethods.handle(request);
                return;
            }
            request.body().onSuccess(body -> posts.accept(request, body.toJsonObject()));
        }).listen(0, "127.0.0.1"));
    }

    /** A server that answers each POST with {@code posts} (the request, and its JSON-RPC message). */
    static HandWrittenMcpServer start(BiConsumer<HttpServerRequest, JsonObject> posts) {
        return new HandWrittenMcpServer(posts);
    }

    /** Answers {@code GET} and {@code DELETE} with {@code handler}. */
    HandWrittenMcpServer otherMethods(Handler<HttpServerRequest> handler) {
        this.otherMethods = handler;
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort() + "/mcp";
    }

    /** A JSON-RPC result for the request {@code message}. */
    static JsonObject result(JsonObject message, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", message.getValue("id")).put("result", result);
    }

    /** One SSE {@code message} event carrying {@code message}. */
    static String event(JsonObject message) {
        return "event: message\ndata: " + message.encode() + "\n\n";
    }

    @Override
    public void close() {
        Await.result(vertx.close());
    }
}
