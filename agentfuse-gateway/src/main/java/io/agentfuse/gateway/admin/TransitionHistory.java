package io.agentfuse.gateway.admin;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The last {@value #CAPACITY} breaker transitions, kept in a bounded ring as they happen, so that
 * the dashboard shows the recent history the moment it opens rather than only what happens while
 * it is open. {@code GET /admin/transitions} answers them newest first, each as
 * {@link BreakerJson#of(StateTransition) the event stream sends it}:
 * <pre>{@code {"capacity": 200, "transitions": [{"breaker", "from", "to", "reason", "counts", "at"}, ...]}}</pre>
 * Reading needs no token. Register it on the registry ({@code registry.addListener(history)}).
 *
 * <p>Thread-safe: transitions arrive on whatever thread made them; a short lock guards the ring
 * (a transition is rare next to a request).
 */
public final class TransitionHistory implements CircuitBreakerListener {

    /** How many transitions are kept. */
    public static final int CAPACITY = 200;

    private final Deque<StateTransition> ring = new ArrayDeque<>(CAPACITY);

    @Override
    public void onStateTransition(StateTransition event) {
        synchronized (ring) {
            if (ring.size() == CAPACITY) {
                ring.removeLast();
            }
            ring.addFirst(event);
        }
    }

    /** The transitions kept, newest first. */
    public List<StateTransition> recent() {
        synchronized (ring) {
            return new ArrayList<>(ring);
        }
    }

    /** Adds {@code GET /admin/transitions} to {@code router}. */
    public void mount(Router router) {
        router.get("/admin/transitions").handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        JsonArray transitions = new JsonArray();
        recent().forEach(transition -> transitions.add(BreakerJson.of(transition)));
        ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store")
                .end(new JsonObject().put("capacity", CAPACITY).put("transitions", transitions).encode());
    }
}
