package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model exchanges under way, so that a stopping gateway can end those still running when its
 * {@code server.shutdownGrace} is over ({@link #cutShort}): each with an answer, never a cut
 * connection.
 *
 * <p>Every exchange is linked into the list of its own context (an event loop) while it runs:
 * adding and removing are two pointer writes on the loop that runs it, with no lock, no allocation
 * and no cache line shared between loops — the cost every request pays for a moment that comes once.
 * The lists are found through a concurrent map keyed by the event loop's thread (a read per
 * request), not by context: Vert.x gives every request a context of its own (a duplicate of its
 * loop's), and a map keyed by those grew by one list per request, for good.
 * Thread-safe in that sense: an exchange is added and removed on its context; {@link #cutShort}
 * visits each list on its context.
 */
final class InFlightExchanges {

    private final Map<Thread, Loop> loops = new ConcurrentHashMap<>();

    /** How many event loops have a list: each loop that ever ran an exchange, once. */
    int loops() {
        return loops.size();
    }

    /** Links {@code exchange}, on its context, until {@link #remove}. */
    void add(ChatExchange exchange) {
        Loop loop = loops.get(Thread.currentThread());
        if (loop == null) {
            Context context = exchange.context();
            loop = loops.computeIfAbsent(Thread.currentThread(), ignored -> new Loop(context));
        }
        loop.link(exchange);
    }

    /** Unlinks {@code exchange}, on its context; nothing when it is not linked. */
    void remove(ChatExchange exchange) {
        Loop loop = loops.get(Thread.currentThread());
        if (loop != null) {
            loop.unlink(exchange);
        }
    }

    /**
     * Ends every exchange still under way with {@code reason} (see {@link ChatExchange#cutShort});
     * completes once every context has done so.
     */
    Future<Void> cutShort(GatewayException reason) {
        List<Future<Void>> passes = new ArrayList<>();
        loops.forEach((thread, loop) -> {
            Promise<Void> pass = Promise.promise();
            loop.context.runOnContext(v -> {
                try {
                    loop.cutShort(reason);
                } finally {
                    pass.complete();
                }
            });
            passes.add(pass.future());
        });
        return Future.join(passes).mapEmpty();
    }

    /** The exchanges of one event loop, linked through their {@code previous}/{@code next} fields. Confined to it. */
    private static final class Loop {
        /** A context of the loop (the first exchange's), to visit the list on its thread. */
        private final Context context;
        private ChatExchange head;

        Loop(Context context) {
            this.context = context;
        }

        void link(ChatExchange exchange) {
            exchange.next = head;
            exchange.previous = null;
            if (head != null) {
                head.previous = exchange;
            }
            head = exchange;
            exchange.linked = true;
        }

        void unlink(ChatExchange exchange) {
            if (!exchange.linked) {
                return;
            }
            exchange.linked = false;
            if (exchange.previous != null) {
                exchange.previous.next = exchange.next;
            } else {
                head = exchange.next;
            }
            if (exchange.next != null) {
                exchange.next.previous = exchange.previous;
            }
            exchange.previous = null;
            exchange.next = null;
        }

        void cutShort(GatewayException reason) {
            // Cutting an exchange short may end it at once (and so unlink it): walk a copy.
            List<ChatExchange> running = new ArrayList<>();
            for (ChatExchange exchange = head; exchange != null; exchange = exchange.next) {
                running.add(exchange);
            }
            running.forEach(exchange -> exchange.cutShort(reason));
        }
    }
}
