package io.agentfuse.gateway.server;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Whether the gateway should be sent traffic, as {@code GET /readyz} tells load balancers and
 * Kubernetes (docs/design.md §14): 200 {@code {"status":"ready"}} while serving, 503
 * {@code {"status":"starting"}} until the gateway has started and 503 {@code {"status":"draining"}}
 * from the moment it is told to stop. {@code /healthz} stays the liveness check: a draining
 * gateway is alive. While draining, every response also says {@code connection: close}, so that
 * keep-alive clients take their next request elsewhere rather than to a listener about to close.
 *
 * <p>Thread-safe: one volatile state, read on every request.
 */
public final class Readiness {

    /** Where the gateway is in its life. */
    public enum State {
        /** Listening, but not everything is in place yet. */
        STARTING,
        /** Serving. */
        SERVING,
        /** Told to stop: finishing what is in flight. */
        DRAINING
    }

    private volatile State state = State.STARTING;

    /** The state now. */
    public State state() {
        return state;
    }

    /** The gateway has started: {@code /readyz} answers 200. */
    public void serving() {
        if (state == State.STARTING) {
            state = State.SERVING;
        }
    }

    /** The gateway was told to stop: {@code /readyz} answers 503 from now on. */
    public void draining() {
        state = State.DRAINING;
    }

    /** Whether the gateway is draining. */
    public boolean isDraining() {
        return state == State.DRAINING;
    }

    /** Answers {@code GET /readyz}. */
    public void handle(RoutingContext ctx) {
        State now = state;
        ctx.response().setStatusCode(now == State.SERVING ? 200 : 503)
                .putHeader("content-type", "application/json").putHeader("cache-control", "no-store")
                .end(new JsonObject().put("status", now == State.SERVING ? "ready" : now.name().toLowerCase(java.util.Locale.ROOT))
                        .encode());
    }
}
