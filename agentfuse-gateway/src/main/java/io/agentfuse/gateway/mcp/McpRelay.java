package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.http.HopByHop;
import io.agentfuse.gateway.internal.CallerWritability;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.upstream.UpstreamHttp;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Relays a streamed answer of an MCP server (an SSE answer to a POST, the {@code GET} stream)
 * byte for byte to the client, with bounded buffering: when the client takes no more (its write
 * buffer full, {@link CallerWritability}, or Vert.x's write queue) the server's response is paused
 * until it does, and a client that stays stalled for {@code clientWriteTimeout} is cut off. A
 * client that disconnects resets the upstream request (the server sees it leave); an upstream that
 * breaks mid-way resets the client's connection, so a broken stream never looks like a clean end.
 * An optional idle timeout ends a stream whose server went quiet, and an optional answer timeout
 * one that takes too long as a whole. However it ends, the relay says
 * how, once ({@link Ending}), so that its caller settles what it holds for it.
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

    /**
     * @param idleTimeout the longest silence between two chunks, or {@code null} for none (the GET
     *                    stream of a quiet server may stay silent for long)
     */
    McpRelay(Vertx vertx, McpUpstream.Streamed upstream, HttpServerResponse client, HttpConnection connection,
             Duration writeTimeout, Duration idleTimeout) {
        this(vertx, upstream, client, connection, writeTimeout, idleTimeout, null);
    }

    /**
     * @param idleTimeout   the longest silence between two chunks, or {@code null} for none
     * @param answerTimeout the longest the whole answer may take from here, or {@code null} for no
     *                      bound (a {@code GET} stream); past it the client's connection is reset
     */
    McpRelay(Vertx vertx, McpUpstream.Streamed upstream, HttpServerResponse client, HttpConnection connection,
             Duration writeTimeout, Duration idleTimeout, Duration answerTimeout) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.upstream = upstream;
        this.client = client;
        this.connection = connection;
        this.writeTimeout = writeTimeout;
        this.idleTimeout = idleTimeout;
        this.answerTimeout = answerTimeout;
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
            client.write(chunk);
            if (CallerWritability.takesNoMore(connection, client)) {
                response.pause();
                stallTimer = vertx.setTimer(writeTimeout.toMillis(), id -> {
                    // A client that stopped reading must not hold the server's connection.
                    abandon(Ending.CLIENT_LEFT);
                    client.reset();
                });
                Runnable resume = () -> {
                    vertx.cancelTimer(stallTimer);
                    response.resume();
                };
                CallerWritability.whenItTakesMore(connection, client, () -> OnContext.run(context, resume));
            }
        });
        response.exceptionHandler(failure -> {
            if (!finished) {
                finish(Ending.UPSTREAM_BROKE);
                client.reset();
            }
        });
        response.endHandler(v -> {
            if (!finished) {
                finish(Ending.COMPLETE);
                if (!client.ended() && !client.closed()) {
                    client.end();
                }
            }
        });
        armIdleTimer();
        if (answerTimeout != null) {
            // A server that trickles a byte now and then is never idle, but its answer has a time limit.
            answerTimer = vertx.setTimer(Math.max(1, answerTimeout.toMillis()), id -> {
                abandon(Ending.TIMED_OUT);
                client.reset();
            });
        }
        response.resume();
    }

    private void armIdleTimer() {
        if (idleTimeout == null) {
            return;
        }
        if (idleTimer >= 0) {
            vertx.cancelTimer(idleTimer);
        }
        idleTimer = vertx.setTimer(idleTimeout.toMillis(), id -> {
            abandon(Ending.TIMED_OUT);
            client.reset();
        });
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
