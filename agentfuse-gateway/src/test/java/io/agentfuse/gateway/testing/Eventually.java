package io.agentfuse.gateway.testing;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.function.BooleanSupplier;

/** Waits (on Vert.x timers, without sleeping) until a condition that another party makes true holds. */
public final class Eventually {

    private Eventually() {
    }

    /** Returns once {@code condition} holds; fails the test after the bound of {@link Await}. */
    public static void holds(Vertx vertx, BooleanSupplier condition) {
        Promise<Void> met = Promise.promise();
        long timer = vertx.setPeriodic(10, id -> {
            if (condition.getAsBoolean()) {
                met.tryComplete();
            }
        });
        try {
            Await.result(met.future());
        } finally {
            vertx.cancelTimer(timer);
        }
    }
}
