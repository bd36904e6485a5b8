package io.agentfuse.gateway.testing;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/** A plain HTTP client for tests: one request to 127.0.0.1, the whole answer as text. */
public final class LoopbackClient {

    private final Vertx vertx;
    private final HttpClient client;
    private final int port;

    public LoopbackClient(Vertx vertx, int port) {
        this.vertx = vertx;
        this.client = vertx.createHttpClient();
        this.port = port;
    }

    /** The answer to {@code POST path} with {@code body}. */
    public Reply post(String path, Object body) {
        return Await.result(send(HttpMethod.POST, path, body instanceof JsonObject json ? json.encode() : String.valueOf(body)));
    }

    /** The answer to {@code GET path}. */
    public Reply get(String path) {
        return Await.result(send(HttpMethod.GET, path, ""));
    }

    /** The failure of {@code POST path}, for answers that never come (dropped connections). */
    public Throwable postFailure(String path, JsonObject body) {
        return Await.failure(send(HttpMethod.POST, path, body.encode()));
    }

    private Future<Reply> send(HttpMethod method, String path, String body) {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI(path)
                .putHeader("content-type", "application/json");
        // Wired on the event loop: from the test thread, the response could end before body() is asked for.
        Promise<Reply> reply = Promise.promise();
        vertx.runOnContext(v -> client.request(options)
                .compose(request -> request.send(body))
                .compose(response -> response.body()
                        .map(bytes -> new Reply(response.statusCode(), response.headers(), bytes.toString())))
                .onComplete(reply));
        return reply.future();
    }

    /** A complete answer. */
    public record Reply(int status, MultiMap headers, String body) {
        public JsonObject json() {
            return new JsonObject(body);
        }
    }
}
