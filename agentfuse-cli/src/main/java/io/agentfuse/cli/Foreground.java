package io.agentfuse.cli;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Keeps a started server in the foreground until a stop is requested, then stops it gracefully
 * (a gateway drains) — or at once, when a second stop is requested meanwhile — and closes Vert.x.
 */
final class Foreground {

    /** How often the wait for a graceful stop looks for a second stop request. */
    private static final long URGENT_CHECK_MILLIS = 100;

    private Foreground() {
    }

    /** Blocks until {@code signal} asks to stop; returns the exit code 0. */
    static int runUntilStopped(StopSignal signal, Supplier<Future<Void>> stopGracefully, Supplier<Future<Void>> stopNow,
                               Vertx vertx) throws InterruptedException {
        try {
            signal.awaitStopRequest();
        } finally {
            try {
                CountDownLatch done = new CountDownLatch(1);
                stopGracefully.get().onComplete(result -> done.countDown());
                while (done.getCount() > 0) {
                    if (signal.awaitUrgentStop(URGENT_CHECK_MILLIS)) {
                        stopNow.get().await();
                        break;
                    }
                }
            } finally {
                vertx.close().await();
                signal.stopped();
            }
        }
        return CommandLine.ExitCode.OK;
    }

    /** {@link #runUntilStopped(StopSignal, Supplier, Supplier, Vertx)} for a server that stops the same way in both cases. */
    static int runUntilStopped(StopSignal signal, Supplier<Future<Void>> stop, Vertx vertx) throws InterruptedException {
        return runUntilStopped(signal, stop, stop, vertx);
    }
}
