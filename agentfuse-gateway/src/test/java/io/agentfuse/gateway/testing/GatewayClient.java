package io.agentfuse.gateway.testing;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A test client for the gateway over loopback: whole answers, streamed answers read as SSE
 * events, and requests abandoned half-way. Every wait is bounded by {@link Await}.
 */
public final class GatewayClient {

    private final Vertx vertx;
    private final HttpClient client;
    private final int port;

    public GatewayClient(Vertx vertx, int port) {
        this.vertx = vertx;
        this.client = vertx.createHttpClient();
        this.port = port;
    }

    /** The answer to {@code POST path} with a JSON body. */
    public Reply post(String path, JsonObject body, Map<String, String> headers) {
        return send(HttpMethod.POST, path, Buffer.buffer(body.encode()), headers);
    }

    /** The answer to {@code POST path} with a JSON body and no extra headers. */
    public Reply post(String path, JsonObject body) {
        return post(path, body, Map.of());
    }

    /** The answer to {@code method path} with a raw body. */
    public Reply send(HttpMethod method, String path, Buffer body, Map<String, String> headers) {
        Promise<Reply> reply = Promise.promise();
        vertx.runOnContext(v -> client.request(options(method, path, headers))
                .compose(request -> request.send(body))
                .compose(response -> response.body().map(bytes -> new Reply(response.statusCode(), response.headers(), bytes.toString())))
                .onComplete(reply));
        return Await.result(reply.future());
    }

    /** The answer to {@code GET path}. */
    public Reply get(String path) {
        return send(HttpMethod.GET, path, Buffer.buffer(), Map.of());
    }

    /** A streamed answer to {@code POST path}: its head, and every SSE event until the end. */
    public StreamReply stream(String path, JsonObject body, Map<String, String> headers) {
        Promise<StreamReply> reply = Promise.promise();
        vertx.runOnContext(v -> client.request(options(HttpMethod.POST, path, headers))
                .compose(request -> request.send(body.encode()))
                .compose(response -> collect(response).map(collected ->
                        new StreamReply(response.statusCode(), response.headers(), collected.events, collected.cutOff)))
                .onComplete(reply));
        return Await.result(reply.future());
    }

    /** Sends {@code POST path} and closes the connection at the moment {@code when} says; returns once closed. */
    public void hangUp(String path, JsonObject body, Map<String, String> headers, HangUp when) {
        Promise<Void> closed = Promise.promise();
        vertx.runOnContext(v -> client.request(options(HttpMethod.POST, path, headers)).onSuccess(request -> {
            if (when == HangUp.AFTER_SENDING) {
                request.end(body.encode()).onComplete(sent -> vertx.setTimer(100, id ->
                        request.connection().close().onComplete(done -> closed.tryComplete())));
                return;
            }
            request.send(body.encode()).onSuccess(response -> {
                SseParser parser = new SseParser(event -> request.connection().close()
                        .onComplete(done -> closed.tryComplete()));
                response.handler(parser::feed);
            }).onFailure(closed::tryFail);
        }).onFailure(closed::tryFail));
        Await.result(closed.future());
    }

    /**
     * Sends {@code POST path} and closes the connection once {@code condition} holds (looked at every few
     * milliseconds on the client's loop: a provider's mock having seen the call, say); returns once closed.
     */
    public void hangUpWhen(String path, JsonObject body, Map<String, String> headers, BooleanSupplier condition) {
        Promise<Void> closed = Promise.promise();
        vertx.runOnContext(v -> client.request(options(HttpMethod.POST, path, headers)).onSuccess(request ->
                request.end(body.encode()).onComplete(sent -> vertx.setPeriodic(5, id -> {
                    if (condition.getAsBoolean()) {
                        vertx.cancelTimer(id);
                        request.connection().close().onComplete(done -> closed.tryComplete());
                    }
                }))).onFailure(closed::tryFail));
        Await.result(closed.future());
    }

    /** When {@link #hangUp} closes the connection. */
    public enum HangUp {
        /** Soon after the request is sent, before any answer. */
        AFTER_SENDING,
        /** After the first streamed event. */
        AFTER_FIRST_EVENT
    }

    private static Future<Collected> collect(HttpClientResponse response) {
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        Promise<Collected> done = Promise.promise();
        response.handler(parser::feed);
        response.endHandler(v -> {
            parser.end();
            done.tryComplete(new Collected(events, false));
        });
        // A connection closed before the end of the chunked body: what every HTTP client sees as a failed stream.
        response.exceptionHandler(error -> done.tryComplete(new Collected(events, true)));
        return done.future();
    }

    private record Collected(List<SseEvent> events, boolean cutOff) {
    }

    private RequestOptions options(HttpMethod method, String path, Map<String, String> headers) {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI(path)
                .putHeader("content-type", "application/json");
        headers.forEach(options::putHeader);
        return options;
    }

    /** A complete answer. */
    public record Reply(int status, MultiMap headers, String body) {
        public JsonObject json() {
            return new JsonObject(body);
        }

        public String header(String name) {
            return headers.get(name);
        }
    }

    /**
     * A streamed answer.
     *
     * @param cutOff whether the connection closed before the body ended properly (how a failed stream ends)
     */
    public record StreamReply(int status, MultiMap headers, List<SseEvent> events, boolean cutOff) {
        public String header(String name) {
            return headers.get(name);
        }

        /** The data of every event, joined by newlines, for contains-checks. */
        public String data() {
            return String.join("\n", events.stream().map(SseEvent::data).toList());
        }
    }
}
