package io.agentfuse.gateway.testing;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OpenAI-style provider on 127.0.0.1 that misbehaves by the model asked for — a real server,
 * so the gateway's client meets it as it would meet a broken or hostile provider:
 * <ul>
 *   <li>{@code huge-length}: 200 declaring a 1 GiB body, and sending as long as it is read;</li>
 *   <li>{@code endless-chunked}: 200, chunked, without end;</li>
 *   <li>{@code huge-error}: 400 with an error body without end;</li>
 *   <li>{@code endless-event}: an SSE stream whose first event never ends;</li>
 *   <li>{@code big-stream}: an SSE stream of 16 KB content events without end, as fast as it is read;</li>
 *   <li>{@code endless-preamble}: an SSE stream of chunks that only open the answer (a role, no
 *       content) without end, as fast as it is read: an answer that never begins;</li>
 *   <li>{@code held}: a normal answer, held until the test calls {@link #releaseHeld()};</li>
 *   <li>{@code held-stream}: an SSE stream whose first content comes at once and whose end is held
 *       until the test calls {@link #releaseHeld()};</li>
 *   <li>{@code big-answer}: a well-formed answer whose text is {@value #BIG_ANSWER_CHARS} characters;</li>
 *   <li>anything else: a normal, small answer.</li>
 * </ul>
 */
public final class HostileUpstream {

    /** How many events {@code crumbs-stream} sends before {@code [DONE]}. */
    public static final int CRUMB_EVENTS = 2_000;
    private static final Buffer FILLER = Buffer.buffer("x".repeat(64 * 1024));
    /** How many characters the text of {@code big-answer} has. */
    public static final int BIG_ANSWER_CHARS = 4_000_000;
    /** The answer of {@code big-answer}: a well-formed chat completion whose text is 4 MB. */
    private static final Buffer BIG_ANSWER = new JsonObject()
            .put("id", "c1").put("object", "chat.completion").put("created", 0).put("model", "big-answer")
            .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
                    .put("message", new JsonObject().put("role", "assistant").put("content", "y".repeat(BIG_ANSWER_CHARS)))
                    .put("finish_reason", "stop")))
            .put("usage", new JsonObject().put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2))
            .toBuffer();

    private final Vertx vertx;
    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger endless = new AtomicInteger();
    private final AtomicInteger blocked = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    /** The answers of {@code held}, each with the context of its connection, waiting for {@link #releaseHeld()}. */
    private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();

    private HostileUpstream(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    /** Starts one on a free port. */
    public static Future<HostileUpstream> start(Vertx vertx) {
        HttpServer server = vertx.createHttpServer();
        HostileUpstream upstream = new HostileUpstream(vertx, server);
        return server.connectionHandler(connection -> {
                    upstream.open.incrementAndGet();
                    connection.closeHandler(v -> upstream.open.decrementAndGet());
                })
                .requestHandler(upstream::handle).listen(0, "127.0.0.1").map(ignored -> upstream);
    }

    public int port() {
        return server.actualPort();
    }

    /** How many requests it has received. */
    public int requests() {
        return requests.get();
    }

    /** How many connections to it are open. */
    public int openConnections() {
        return open.get();
    }

    /** How many of its answers that never end are still being sent: until their connection closes. */
    public int endlessAnswers() {
        return endless.get();
    }

    /**
     * How many of its answers that never end wait for their reader to take their last write: every
     * one, once every reader has stopped reading and the buffers between them are full.
     */
    public int blockedAnswers() {
        return blocked.get();
    }

    /** How many bytes its answers that never end have written so far. */
    public long endlessBytes() {
        return written.get();
    }

    /** How many answers of {@code held} are waiting for {@link #releaseHeld()}. */
    public int heldAnswers() {
        return held.size();
    }

    /** Sends every answer of {@code held} that is waiting. */
    public void releaseHeld() {
        for (Runnable answer = held.poll(); answer != null; answer = held.poll()) {
            answer.run();
        }
    }

    public Future<Void> close() {
        return server.close();
    }

    private void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        request.body().onSuccess(body -> {
            String model = new JsonObject(body).getString("model", "");
            if (model.equals("held")) {
                Context connection = vertx.getOrCreateContext();
                // Closed after its end: the gateway's pool must not keep thirty idle connections to it.
                held.add(() -> connection.runOnContext(v -> answer(request.response().putHeader("connection", "close"), model)));
            } else if (model.equals("held-stream")) {
                Context connection = vertx.getOrCreateContext();
                // Closed after its end: the gateway's pool must not keep forty idle connections to it.
                HttpServerResponse response = sse(request.response()).putHeader("connection", "close");
                response.write(chunk(model, new JsonObject().put("role", "assistant").put("content", "begun")));
                held.add(() -> connection.runOnContext(v -> response.end(chunk(model, new JsonObject()) + "data: [DONE]\n\n")));
            } else {
                answer(request.response(), model);
            }
        });
    }

    private void answer(HttpServerResponse response, String model) {
        switch (model) {
            case "huge-length" -> pump(response.putHeader("content-length", Long.toString(1L << 30)), FILLER);
            case "endless-chunked" -> pump(response.setChunked(true), FILLER);
            case "huge-error" -> {
                response.setStatusCode(400).setChunked(true).putHeader("content-type", "application/json");
                response.write("{\"error\": {\"type\": \"invalid_request_error\", \"message\": \"");
                pump(response, FILLER);
            }
            case "endless-event" -> {
                sse(response).write("data: ");
                pump(response, FILLER);
            }
            case "big-stream" -> pump(sse(response), Buffer.buffer("data: " + new JsonObject()
                    .put("id", "c1").put("object", "chat.completion.chunk").put("created", 0).put("model", model)
                    .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
                            .put("delta", new JsonObject().put("content", "y".repeat(16 * 1024))).putNull("finish_reason")))
                    .encode() + "\n\n"));
            case "crumbs-stream" -> crumbs(sse(response));
            // Closed after its end: the gateway's pool must not keep forty idle connections to it.
            case "big-answer" -> response.putHeader("content-type", "application/json").putHeader("connection", "close")
                    .end(BIG_ANSWER);
            case "endless-preamble" -> pump(sse(response), Buffer.buffer(("data: " + new JsonObject()
                    .put("id", "c1").put("object", "chat.completion.chunk").put("created", 0).put("model", model)
                    .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
                            .put("delta", new JsonObject().put("role", "assistant").put("content", "")).putNull("finish_reason")))
                    .encode() + "\n\n").repeat(64)));
            default -> response.putHeader("content-type", "application/json").end(new JsonObject()
                    .put("id", "c1").put("object", "chat.completion").put("created", 0).put("model", model)
                    .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
                            .put("message", new JsonObject().put("role", "assistant").put("content", "ok"))
                            .put("finish_reason", "stop")))
                    .put("usage", new JsonObject().put("prompt_tokens", 1).put("completion_tokens", 1)
                            .put("total_tokens", 2))
                    .encode());
        }
    }

    /**
     * A finite stream of {@value #CRUMB_EVENTS} events whose content is {@code e0}, {@code e1}, ...,
     * then {@code [DONE]}, written at once in HTTP chunks of 1 to 7 bytes: an event's bytes spread over
     * many chunks, and many chunks in each read of the gateway.
     */
    private static void crumbs(HttpServerResponse response) {
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < CRUMB_EVENTS; i++) {
            stream.append("data: ").append(new JsonObject().put("id", "c1").put("object", "chat.completion.chunk")
                    .put("created", 0).put("model", "crumbs-stream").put("choices", new io.vertx.core.json.JsonArray()
                            .add(new JsonObject().put("index", 0).put("delta", new JsonObject().put("content", "e" + i))
                                    .putNull("finish_reason"))).encode()).append("\n\n");
        }
        stream.append("data: [DONE]\n\n");
        for (int at = 0, size = 1; at < stream.length(); at += size, size = size % 7 + 1) {
            response.write(stream.substring(at, Math.min(stream.length(), at + size)));
        }
        response.end();
    }

    /** One chat completion chunk of {@code model} with {@code delta}, as an SSE event. */
    private static String chunk(String model, JsonObject delta) {
        return "data: " + new JsonObject().put("id", "c1").put("object", "chat.completion.chunk").put("created", 0)
                .put("model", model).put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject()
                        .put("index", 0).put("delta", delta).putNull("finish_reason"))).encode() + "\n\n";
    }

    private static HttpServerResponse sse(HttpServerResponse response) {
        return response.setChunked(true).putHeader("content-type", "text/event-stream");
    }

    /**
     * Writes {@code chunk} for as long as the peer reads, until it goes away: one chunk at a time,
     * the next once the last has been written, so the event loop is never held.
     */
    private void pump(HttpServerResponse response, Buffer chunk) {
        if (response.closed()) {
            return; // on the connection's event loop: its close handlers have run already
        }
        endless.incrementAndGet();
        response.closeHandler(v -> endless.decrementAndGet());
        write(response, chunk);
    }

    private void write(HttpServerResponse response, Buffer chunk) {
        if (!response.closed()) {
            blocked.incrementAndGet();
            response.write(chunk).onComplete(done -> {
                blocked.decrementAndGet();
                if (done.succeeded()) {
                    written.addAndGet(chunk.length());
                    write(response, chunk);
                }
            });
        }
    }
}
