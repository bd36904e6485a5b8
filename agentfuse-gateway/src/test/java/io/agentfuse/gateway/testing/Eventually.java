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

    /**
     * As {@link #holds}, for a condition that blocks (one that asks the gateway over HTTP): it is
     * checked on the calling thread, every 10 ms of a Vert.x timer, up to the bound of {@link Await}.
     */
    public static void holdsAsked(Vertx vertx, BooleanSupplier condition) {
        for (int tries = 0; !condition.getAsBoolean(); tries++) {
            if (tries * 10L >= Await.BOUND_SECONDS * 1000) {
                throw new AssertionError("the condition did not hold within " + Await.BOUND_SECONDS + " s");
            }
            Promise<Void> tick = Promise.promise();
            vertx.setTimer(10, id -> tick.complete());
            Await.result(tick.future());
        }
    }
}
