package io.agentfuse.gateway.admin;

import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /admin/events}: a live SSE stream of every breaker state transition, as
 * {@code event: transition} with {@link BreakerJson#of(StateTransition) the transition} as data.
 * A comment is sent on connect (so the head goes out at once) and every 15 s (so that proxies
 * keep an idle stream open).
 *
 * <p>Each subscriber may have at most {@code maxQueueBytes} (default 1 MB, {@code server.maxEventQueue})
 * written but not yet read; a subscriber that falls further behind is dropped (its connection
 * closed), so slow readers cannot make the gateway buffer without end.
 *
 * <p>One registry listener feeds every subscriber; a transition, published on whatever thread
 * caused it, is written on each subscriber's own context. Thread-safe. {@link #close()} ends
 * every stream.
 *
 * <pre>{@code
 * BreakerEventStream events = new BreakerEventStream(vertx, runtime.registry());
 * router.get("/admin/events").handler(events::subscribe);
 * }</pre>
 */
public final class BreakerEventStream {

    private static final long HEARTBEAT_MILLIS = 15_000;
    /** Bytes queued for one subscriber before it is dropped, unless told otherwise. */
    public static final int DEFAULT_MAX_QUEUE_BYTES = 1024 * 1024;

    private final Vertx vertx;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final long heartbeat;
    private final int maxQueueBytes;
    private volatile boolean closed;

    /** Streams the transitions of every breaker of {@code registry}, present and future. */
    public BreakerEventStream(Vertx vertx, CircuitBreakerRegistry registry) {
        this(vertx, registry, DEFAULT_MAX_QUEUE_BYTES);
    }

    /** Like {@link #BreakerEventStream(Vertx, CircuitBreakerRegistry)}, dropping subscribers over {@code maxQueueBytes}. */
    public BreakerEventStream(Vertx vertx, CircuitBreakerRegistry registry, int maxQueueBytes) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        if (maxQueueBytes < 1) {
            throw new IllegalArgumentException("maxQueueBytes must be >= 1, but was " + maxQueueBytes);
        }
        this.maxQueueBytes = maxQueueBytes;
        registry.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(StateTransition event) {
                publish(event);
            }
        });
        this.heartbeat = vertx.setPeriodic(HEARTBEAT_MILLIS, id -> broadcast(Buffer.buffer(": ping\n\n")));
    }

    /** The handler of {@code GET /admin/events}. */
    public void subscribe(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        response.setChunked(true)
                .setWriteQueueMaxSize(maxQueueBytes)
                .putHeader("content-type", "text/event-stream")
                .putHeader("cache-control", "no-cache");
        if (closed) {
            response.end();
            return;
        }
        Subscriber subscriber = new Subscriber(response, ctx.request().connection(), Vertx.currentContext());
        subscribers.add(subscriber);
        response.closeHandler(v -> subscribers.remove(subscriber));
        response.write(": connected\n\n");
    }

    /** How many streams are open (dropped subscribers are not counted). */
    public int subscribers() {
        return subscribers.size();
    }

    /** Ends every stream and stops listening for new ones; transitions are no longer sent. */
    public void close() {
        closed = true;
        vertx.cancelTimer(heartbeat);
        subscribers.forEach(subscriber -> subscriber.onContext(() -> {
            if (!subscriber.response.ended() && !subscriber.response.closed()) {
                subscriber.response.end();
            }
        }));
        subscribers.clear();
    }

    private void publish(StateTransition transition) {
        if (!subscribers.isEmpty()) {
            broadcast(SseEvent.named("transition", BreakerJson.of(transition).encode()).toBuffer());
        }
    }

    private void broadcast(Buffer frame) {
        for (Subscriber subscriber : subscribers) {
            subscriber.onContext(() -> {
                HttpServerResponse response = subscriber.response;
                if (response.closed() || response.ended()) {
                    return;
                }
                if (response.writeQueueFull()) {
                    // It has not read what it was sent: drop it rather than queue without end.
                    subscribers.remove(subscriber);
                    Disconnect.now(subscriber.connection); // a graceful close would wait for it to read
                    return;
                }
                response.write(frame.copy());
            });
        }
    }

    private record Subscriber(HttpServerResponse response, HttpConnection connection, Context context) {
        void onContext(Runnable action) {
            OnContext.run(context, action);
        }
    }
}
