package io.agentfuse.cli;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Keeps a started server in the foreground until a stop is requested, then stops it gracefully
 * (a gateway drains) — or at once, when a second stop is requested meanwhile — and closes Vert.x.
 * Neither waits without end: a stop that has not finished within the longest it may take (a
 * connection whose peer stopped reading can hold Vert.x's graceful close forever) is given up with a
 * warning, and the command returns; the process then exits with what it returns.
 */
final class Foreground {

    private static final Logger LOG = LoggerFactory.getLogger(Foreground.class);
    /** How often the wait for a graceful stop looks for a second stop request. */
    private static final long URGENT_CHECK_MILLIS = 100;
    /** How long Vert.x may take to close once the server has stopped, or been given up on. */
    static final Duration CLOSE_BOUND = Duration.ofSeconds(5);

    private Foreground() {
    }

    /**
     * Blocks until {@code signal} asks to stop, then stops within {@code longest} (then
     * {@link #CLOSE_BOUND} for Vert.x); returns the exit code 0.
     */
    static int runUntilStopped(StopSignal signal, Supplier<Future<Void>> stopGracefully, Supplier<Future<Void>> stopNow,
                               Vertx vertx, Duration longest) throws InterruptedException {
        try {
            signal.awaitStopRequest();
        } finally {
            try {
                CountDownLatch done = new CountDownLatch(1);
                stopGracefully.get().onComplete(result -> done.countDown());
                long giveUpAt = System.nanoTime() + longest.toNanos();
                while (done.getCount() > 0) {
                    if (signal.awaitUrgentStop(URGENT_CHECK_MILLIS)) {
                        await(stopNow.get(), CLOSE_BOUND, "the immediate stop");
                        break;
                    }
                    if (System.nanoTime() - giveUpAt > 0) {
                        LOG.warn("the stop did not finish within {} s: exiting with what is still open",
                                longest.toSeconds());
                        break;
                    }
                }
            } finally {
                await(vertx.close(), CLOSE_BOUND, "closing Vert.x");
                signal.stopped();
            }
        }
        return CommandLine.ExitCode.OK;
    }

    /** {@link #runUntilStopped(StopSignal, Supplier, Supplier, Vertx, Duration)} for a server that stops the same way in both cases. */
    static int runUntilStopped(StopSignal signal, Supplier<Future<Void>> stop, Vertx vertx, Duration longest)
            throws InterruptedException {
        return runUntilStopped(signal, stop, stop, vertx, longest);
    }

    private static void await(Future<Void> step, Duration bound, String what) throws InterruptedException {
        try {
            step.toCompletionStage().toCompletableFuture().get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("{} did not finish within {} s: given up", what, bound.toSeconds());
        } catch (ExecutionException e) {
            LOG.warn("{} failed: {}", what, e.getCause().toString());
        }
    }
}
