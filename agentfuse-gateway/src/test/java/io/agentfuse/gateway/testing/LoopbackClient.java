package io.agentfuse.gateway.testing;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/** A plain HTTP client for tests: one request to 127.0.0.1, the whole answer as text. */
public final class LoopbackClient {

    private final Vertx vertx;
    private final HttpClient client;
    private final int port;
    private final Map<String, String> headers;

    public LoopbackClient(Vertx vertx, int port) {
        this(vertx, vertx.createHttpClient(), port, Map.of());
    }

    private LoopbackClient(Vertx vertx, HttpClient client, int port, Map<String, String> headers) {
        this.vertx = vertx;
        this.client = client;
        this.port = port;
        this.headers = Map.copyOf(headers);
    }

    /** This client sending {@code more} headers with every request (a provider's client, its API key). */
    public LoopbackClient withHeaders(Map<String, String> more) {
        return new LoopbackClient(vertx, client, port, more);
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
        headers.forEach(options::putHeader);
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
