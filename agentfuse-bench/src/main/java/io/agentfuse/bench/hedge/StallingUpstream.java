package io.agentfuse.bench.hedge;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The upstream of the hedging benchmark: an OpenAI-compatible server that streams every
 * {@code POST /v1/chat/completions}, and stalls the first token of every {@code stallEvery}-th
 * request for model {@link #SLOW_MODEL} (1 in 10: 10 % of first tokens) by {@code stallMillis}; all
 * other first tokens come after {@code firstTokenMillis}, and every model but {@link #SLOW_MODEL} is
 * always healthy. The stalls are counted, not random, so two runs meet the same share.
 *
 * <p>Listens on {@code 127.0.0.1}. Thread-safe.
 */
public final class StallingUpstream {

    /** The upstream model whose first tokens stall. */
    public static final String SLOW_MODEL = "slow-upstream";
    private static final int CHUNKS = 5;

    private final HttpServer server;
    private final AtomicLong slowRequests = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final int stallEvery;
    private final long stallMillis;
    private final long firstTokenMillis;

    private StallingUpstream(HttpServer server, int stallEvery, long stallMillis, long firstTokenMillis) {
        this.server = server;
        this.stallEvery = stallEvery;
        this.stallMillis = stallMillis;
        this.firstTokenMillis = firstTokenMillis;
    }

    /** Starts one on a free port. */
    public static Future<StallingUpstream> start(Vertx vertx, int stallEvery, long stallMillis, long firstTokenMillis) {
        if (stallEvery < 1 || stallMillis < 1 || firstTokenMillis < 0) {
            throw new IllegalArgumentException("stallEvery and stallMillis must be >= 1, firstTokenMillis >= 0, but were "
                    + stallEvery + ", " + stallMillis + ", " + firstTokenMillis);
        }
        HttpServer server = vertx.createHttpServer();
        StallingUpstream upstream = new StallingUpstream(server, stallEvery, stallMillis, firstTokenMillis);
        return server.requestHandler(upstream::handle).listen(0, "127.0.0.1").map(ignored -> upstream);
    }

    /** The port it listens on. */
    public int port() {
        return server.actualPort();
    }

    /** Requests received, every model. */
    public long requests() {
        return requests.get();
    }

    /**
     * Whether the {@code n}-th request (from 1) for {@link #SLOW_MODEL} stalls: every
     * {@code stallEvery}-th does.
     */
    public boolean stalls(long n) {
        return n % stallEvery == 0;
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            requests.incrementAndGet();
            String model = new JsonObject(body).getString("model", "");
            boolean stall = SLOW_MODEL.equals(model) && stalls(slowRequests.incrementAndGet());
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().writeHead();
            Vertx vertx = Vertx.currentContext().owner();
            vertx.setTimer(Math.max(1, stall ? stallMillis : firstTokenMillis), id -> chunk(vertx, request, model, 0));
        });
    }

    private static void chunk(Vertx vertx, HttpServerRequest request, String model, int index) {
        if (request.response().closed()) {
            return; // the gateway cancelled it: a hedge won
        }
        JsonObject delta = index == 0 ? new JsonObject().put("role", "assistant").put("content", "word ")
                : new JsonObject().put("content", "word ");
        JsonObject chunk = new JsonObject().put("id", "chatcmpl-hedge").put("object", "chat.completion.chunk")
                .put("created", 0).put("model", model).put("choices", new io.vertx.core.json.JsonArray()
                        .add(new JsonObject().put("index", 0).put("delta", delta)
                                .put("finish_reason", index == CHUNKS - 1 ? "stop" : null)));
        request.response().write(Buffer.buffer("data: " + chunk.encode() + "\n\n"));
        if (index == CHUNKS - 1) {
            request.response().end("data: [DONE]\n\n");
        } else {
            vertx.setTimer(1, id -> chunk(vertx, request, model, index + 1));
        }
    }

    /** Stops listening. */
    public Future<Void> close() {
        return server.close();
    }
}
