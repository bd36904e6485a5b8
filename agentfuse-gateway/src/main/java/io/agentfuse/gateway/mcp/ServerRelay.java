package io.agentfuse.gateway.mcp;

import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Relays one request of {@code /mcp/{server}} that no guard reads (any {@code POST} but
 * {@code tools/call} and {@code tools/list}, the {@code GET} stream, {@code DELETE}) to its server
 * and back, and settles what the request holds when the relay ends ({@link #settle}): the server
 * breaker's permit and its {@link ConnectionSlots} slot. A session id the server hands out is
 * claimed for the caller ({@link SessionOwners}); a session ended by {@code DELETE} is released.
 * A streamed answer (SSE, the {@code GET} stream, anything to {@code DELETE}) of a success status is
 * relayed as it comes ({@link McpRelay}); any other answer to a {@code POST}, one JSON-RPC message, is
 * read whole first (within the server's {@code timeout} and {@code maxUpstreamBody}), so that whatever
 * happens to it the caller gets a JSON-RPC answer for its request's id, never a connection reset: MCP
 * clients surface such an error as the request's failure. So is an error answer (status 400 or more) to
 * any method, SSE or not, so that it reaches the caller cleared of the egress proxy's login, which a
 * refusing proxy may echo ({@link McpUpstream}); one larger than {@code maxUpstreamBody} is answered
 * 502 with a JSON-RPC error that says so, as a whole answer is. A {@code POST}'s SSE answer that times out or
 * breaks ends with that error as its last event. Also the one place that answers a request that got
 * no answer from its server ({@link #failed}).
 *
 * <p>Thread-safe; each relay runs on its request's event loop.
 */
final class ServerRelay {

    private final Vertx vertx;
    private final McpProxyOptions options;
    private final McpUpstream upstream;
    private final SessionOwners owners;

    ServerRelay(Vertx vertx, McpProxyOptions options, McpUpstream upstream, SessionOwners owners) {
        this.vertx = vertx;
        this.options = options;
        this.upstream = upstream;
        this.owners = owners;
    }

    void relay(RoutingContext ctx, McpServerConfig server, ServerPermit permit, ConnectionSlots.Slot slot,
                       HttpMethod method, Object id, MultiMap headers, Buffer body, Duration idleTimeout, String caller) {
        Duration timeout = server.defaults().timeout();
        String session = ctx.request().getHeader(ServerEndpoint.SESSION_HEADER);
        long started = System.nanoTime();
        upstream.open(server.url(), method, headers, body, timeout).onComplete(done -> {
            if (done.failed()) {
                slot.release();
                failed(ctx, server, permit, id, done.cause());
                return;
            }
            McpUpstream.Streamed streamed = done.result();
            int status = streamed.response().statusCode();
            boolean standing = method == HttpMethod.GET;
            String handedOut = streamed.response().getHeader(ServerEndpoint.SESSION_HEADER);
            if (handedOut != null) {
                owners.claim(server.name(), handedOut, caller);
            }
            if (method == HttpMethod.DELETE && session != null && status / 100 == 2) {
                owners.release(server.name(), session);
            }
            // An answer is bounded as a whole by the server's timeout, its head included.
            Duration answerTimeout = timeout.minusNanos(System.nanoTime() - started);
            boolean post = method == HttpMethod.POST;
            if (status >= 400 || post && !McpAnswer.isEventStream(streamed.response().headers())) {
                // An error answer to any method is read whole too: relayed as it came, it could carry
                // the egress proxy's login, echoed by the proxy, which only a whole answer is cleared of.
                readWhole(ctx, server, permit, slot, id, streamed, answerTimeout);
                return;
            }
            if (standing) {
                // A stream may stay open for hours: its head settles the permit (a probe must not wait that long).
                permit.record(outcomeOf(status));
            }
            McpRelay.LastWord lastWord = post ? ending -> unfinished(server, id, ending) : null;
            new McpRelay(vertx, streamed, ctx.response(), ctx.request().connection(), options.clientWriteTimeout(),
                    idleTimeout, standing ? null : answerTimeout, lastWord).start(ending -> {
                        slot.release();
                        settle(permit, status, standing, ending);
                    });
        });
    }

    /**
     * Reads an answer whole (a {@code POST}'s one message, an error answer to any method), then relays
     * it, or answers its failure ({@link #failed}).
     */
    private void readWhole(RoutingContext ctx, McpServerConfig server, ServerPermit permit, ConnectionSlots.Slot slot,
                           Object id, McpUpstream.Streamed streamed, Duration timeout) {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<McpAnswer> read = upstream.readWhole(streamed, server.url(), timeout);
        ctx.response().closeHandler(v -> read.cancel(true));
        read.whenComplete((answer, error) -> context.runOnContext(v -> {
            slot.release();
            if (error != null) {
                failed(ctx, server, permit, id, error);
            } else {
                permit.record(outcomeOf(answer.status()));
                new McpReply.Relayed(answer).send(ctx.response());
            }
        }));
    }

    /** The last event of a {@code POST}'s SSE answer that ended {@code ending} before the server finished it. */
    private static JsonObject unfinished(McpServerConfig server, Object id, McpRelay.Ending ending) {
        return ending == McpRelay.Ending.TIMED_OUT ? timedOut(server, id)
                : unreachable(server, id, "its answer broke off before it ended");
    }

    /**
     * What the server breaker hears of a relay that ended so: the answer's status once it is whole,
     * a connection error when it broke after its head (a reset, a cut: the server's failure), and
     * nothing when the caller left or the server went quiet. A standing stream settled its permit at
     * its head; a break later is one failure more, recorded if the breaker lets a call through now.
     */
    private static void settle(ServerPermit permit, int status, boolean standing, McpRelay.Ending ending) {
        if (standing) {
            if (ending == McpRelay.Ending.UPSTREAM_BROKE) {
                ServerPermit late = ServerPermit.of(permit.breaker());
                if (late.granted()) {
                    late.record(Outcome.CONNECTION_ERROR);
                }
            }
            return;
        }
        switch (ending) {
            case COMPLETE -> permit.record(outcomeOf(status));
            case UPSTREAM_BROKE -> permit.record(Outcome.CONNECTION_ERROR);
            case TIMED_OUT, CLIENT_LEFT -> permit.release();
        }
    }

    /**
     * A request that got no answer (its JSON-RPC {@code id}, if known, goes in the error): a timeout
     * leaves the server's breaker alone, a broken connection or an answer too large counts.
     */
    static void failed(RoutingContext ctx, McpServerConfig server, ServerPermit permit, Object id, Throwable error) {
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof CallTimeoutException) {
            permit.release();
            new McpReply.Made(504, timedOut(server, id), -1).send(ctx.response());
        } else if (cause instanceof CancellationException) {
            permit.release();
        } else if (cause instanceof McpAnswerTooLargeException tooLarge) {
            permit.record(Outcome.ERROR);
            new McpReply.Made(502, ProxyAnswers.answerTooLarge(id, "the request to MCP server " + server.name(), tooLarge), -1)
                    .send(ctx.response());
        } else {
            permit.record(cause instanceof McpTransportException ? Outcome.CONNECTION_ERROR : Outcome.ERROR);
            new McpReply.Made(502, unreachable(server, id, cause.getMessage()), -1).send(ctx.response());
        }
    }

    /** The error for the request {@code id} that {@code server} did not answer within its timeout. */
    private static JsonObject timedOut(McpServerConfig server, Object id) {
        return ProxyAnswers.error(id, -32001, "timeout", "MCP server " + server.name() + " did not answer within "
                + Math.max(1, server.defaults().timeout().toSeconds()) + " s");
    }

    /** The error for the request {@code id} whose answer {@code server}'s connection failed to bring ({@code why}). */
    private static JsonObject unreachable(McpServerConfig server, Object id, String why) {
        return ProxyAnswers.error(id, ProxyAnswers.SERVER_OPEN_CODE, "upstream_unreachable",
                "MCP server " + server.name() + " is unreachable: " + why);
    }

    /** The outcome of an answer with {@code status} for the server's breaker. */
    static Outcome outcomeOf(int status) {
        return status >= 500 ? OutcomeClassifier.ofStatus(status) : status >= 400 ? Outcome.CLIENT_ERROR : Outcome.SUCCESS;
    }
}
