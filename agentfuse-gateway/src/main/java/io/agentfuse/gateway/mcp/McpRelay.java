package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.http.HopByHop;
import io.agentfuse.gateway.internal.CallerWritability;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.upstream.UpstreamHttp;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Relays a streamed answer of an MCP server (an SSE answer to a POST, the {@code GET} stream)
 * byte for byte to the client, with bounded buffering: when the client takes no more (its write
 * buffer full, {@link CallerWritability}, or Vert.x's write queue) the server's response is paused
 * until it does, and a client that stays stalled for {@code clientWriteTimeout} is cut off. A
 * client that disconnects resets the upstream request (the server sees it leave). An optional idle
 * timeout ends a stream whose server went quiet, and an optional answer timeout one that takes too
 * long as a whole. A stream that cannot be finished (timed out, or broken by the server mid-way)
 * never looks like a clean end: the answer to a request ends with its {@linkplain LastWord last word},
 * a JSON-RPC error event for the request's id, written where the server's events left off
 * ({@link SseCutPoints}: a half-written event is held back until it is whole, and dropped then);
 * the {@code GET} stream, which answers no request, and an answer that cannot take an event of the
 * proxy's (its caller stalled, an event larger than {@code maxSseEvent} begun) reset the client's
 * connection instead. However it ends, the relay says how, once ({@link Ending}), so that its caller
 * settles what it holds for it.
 *
 * <p>Not thread-safe: one instance per relayed response, used on its event loop.
 */
final class McpRelay {

    private final Vertx vertx;
    private final Context context;
    private final McpUpstream.Streamed upstream;
    private final HttpServerResponse client;
    private final HttpConnection connection;
    private final Duration writeTimeout;
    private final Duration idleTimeout;
    private final Duration answerTimeout;
    private final LastWord lastWord;
    /** Where the answer may be cut for the last word; {@code null} without one (the stream is relayed as it comes). */
    private final SseCutPoints cuts;
    /** What came after the answer's last cut point: an event begun, written once it is whole; {@code null} when none. */
    private Buffer held;
    private boolean stalled;
    private long stallTimer = -1;
    private long idleTimer = -1;
    private long answerTimer = -1;
    private boolean finished;
    private Consumer<Ending> whenEnded = ending -> { };

    /** How a relay ended. */
    enum Ending {
        /** The server ended its answer and the client has all of it. */
        COMPLETE,
        /** The server's answer broke after its head (a reset, a cut): the server's failure. */
        UPSTREAM_BROKE,
        /** The server went quiet for longer than the idle limit. */
        TIMED_OUT,
        /** The client left, or stopped reading for longer than the write timeout: nobody's failure upstream. */
        CLIENT_LEFT
    }

    /** What ends the answer to a request that the relay could not finish. */
    @FunctionalInterface
    interface LastWord {
        /** The JSON-RPC message that tells the caller how its request ended ({@code TIMED_OUT} or {@code UPSTREAM_BROKE}). */
        JsonObject of(Ending ending);
    }

    /**
     * @param idleTimeout the longest silence between two chunks, or {@code null} for none (the GET
     *                    stream of a quiet server may stay silent for long)
     */
    McpRelay(Vertx vertx, McpUpstream.Streamed upstream, HttpServerResponse client, HttpConnection connection,
             Duration writeTimeout, Duration idleTimeout) {
        this(vertx, upstream, client, connection, writeTimeout, idleTimeout, null, null);
    }

    /**
     * @param idleTimeout   the longest silence between two chunks, or {@code null} for none
     * @param answerTimeout the longest the whole answer may take from here, or {@code null} for no
     *                      bound (a {@code GET} stream)
     * @param lastWord      how an SSE answer to a request ends when it cannot be finished, or
     *                      {@code null} to reset the client's connection then
     */
    McpRelay(Vertx vertx, McpUpstream.Streamed upstream, HttpServerResponse client, HttpConnection connection,
             Duration writeTimeout, Duration idleTimeout, Duration answerTimeout, LastWord lastWord) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.upstream = upstream;
        this.client = client;
        this.connection = connection;
        this.writeTimeout = writeTimeout;
        this.idleTimeout = idleTimeout;
        this.answerTimeout = answerTimeout;
        this.lastWord = lastWord;
        this.cuts = lastWord == null ? null : new SseCutPoints();
    }

    /** Sends the status line and headers at once, then relays the body as it comes; {@code whenEnded} hears how it ended. */
    void start(Consumer<Ending> whenEnded) {
        this.whenEnded = whenEnded;
        start();
    }

    /** Sends the status line and headers at once, then relays the body as it comes. */
    void start() {
        HttpClientResponse response = upstream.response();
        if (client.closed()) {
            abandon(Ending.CLIENT_LEFT);
            return;
        }
        client.setStatusCode(response.statusCode()).setChunked(true);
        HopByHop.forEachEndToEnd(response.headers(), client.headers()::add);
        client.closeHandler(v -> abandon(Ending.CLIENT_LEFT));
        client.writeHead();
        response.handler(chunk -> {
            armIdleTimer();
            Buffer ready = cuts == null ? chunk : upToLastCut(chunk);
            if (ready != null) {
                client.write(ready);
            }
            if (CallerWritability.takesNoMore(connection, client)) {
                response.pause();
                stalled = true;
                stallTimer = vertx.setTimer(writeTimeout.toMillis(), id -> {
                    // A client that stopped reading must not hold the server's connection.
                    abandon(Ending.CLIENT_LEFT);
                    client.reset();
                });
                Runnable resume = () -> {
                    stalled = false;
                    vertx.cancelTimer(stallTimer);
                    response.resume();
                };
                CallerWritability.whenItTakesMore(connection, client, () -> OnContext.run(context, resume));
            }
        });
        response.exceptionHandler(failure -> {
            if (!finished) {
                finish(Ending.UPSTREAM_BROKE);
                endUnfinished(Ending.UPSTREAM_BROKE);
            }
        });
        response.endHandler(v -> {
            if (!finished) {
                finish(Ending.COMPLETE);
                if (!client.ended() && !client.closed()) {
                    if (held == null) {
                        client.end();
                    } else {
                        client.end(held); // the server's last bytes, as it wrote them
                    }
                }
            }
        });
        armIdleTimer();
        if (answerTimeout != null) {
            // A server that trickles a byte now and then is never idle, but its answer has a time limit.
            answerTimer = vertx.setTimer(Math.max(1, answerTimeout.toMillis()), id -> timedOut());
        }
        response.resume();
    }

    /**
     * What of {@code chunk} may be written now: what was held and the chunk up to its last cut point;
     * the rest is held, or {@code null} is returned when the chunk has no cut point. An event that
     * grows past what the proxy parses ({@code maxSseEvent}) is written as it comes: the answer can
     * no longer take a last word of the proxy's.
     */
    private Buffer upToLastCut(Buffer chunk) {
        int cut = cuts.lastCutIn(chunk);
        if (cut < 0) {
            held = held == null ? chunk.copy() : held.appendBuffer(chunk);
            if (held.length() <= SseParser.DEFAULT_MAX_LINE_BYTES) {
                return null;
            }
            Buffer all = held;
            held = null;
            return all;
        }
        Buffer ready = held == null ? chunk.slice(0, cut) : held.appendBuffer(chunk, 0, cut);
        held = cut == chunk.length() ? null : chunk.getBuffer(cut, chunk.length());
        return ready;
    }

    private void timedOut() {
        if (!finished) {
            abandon(Ending.TIMED_OUT);
            endUnfinished(Ending.TIMED_OUT);
        }
    }

    /**
     * Ends the client's answer, which the server did not finish ({@code why}): with the last word,
     * where the answer can take it, else by resetting the connection.
     */
    private void endUnfinished(Ending why) {
        if (client.ended() || client.closed()) {
            return;
        }
        boolean atCut = cuts != null && (held != null || cuts.atCutPoint());
        if (!atCut || stalled) {
            client.reset();
            return;
        }
        held = null; // the server's half-written event is dropped: the last word follows its last whole one
        client.end(McpAnswer.event(lastWord.of(why)));
    }

    private void armIdleTimer() {
        if (idleTimeout == null) {
            return;
        }
        if (idleTimer >= 0) {
            vertx.cancelTimer(idleTimer);
        }
        idleTimer = vertx.setTimer(idleTimeout.toMillis(), id -> timedOut());
    }

    /** The relay stops before the server's end ({@code why}): stop reading and close the server's request. */
    private void abandon(Ending why) {
        if (!finished) {
            finish(why);
            UpstreamHttp.abandon(upstream.request());
        }
    }

    private void finish(Ending ending) {
        finished = true;
        vertx.cancelTimer(stallTimer);
        vertx.cancelTimer(idleTimer);
        vertx.cancelTimer(answerTimer);
        whenEnded.accept(ending);
    }
}
