package io.agentfuse.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a long-running command ({@code serve}, {@code mock-provider}) learns that it should stop,
 * and tells that it has: from the JVM's shutdown (SIGTERM, Ctrl-C) in production, by hand in
 * tests. On shutdown the hook waits (up to {@value #GRACE_SECONDS} s) until the command has
 * closed its servers, so that stopping is graceful: servers first, then Vert.x.
 *
 * <pre>{@code
 * StopSignal signal = StopSignal.onJvmShutdown();
 * signal.awaitStopRequest();   // blocks until SIGTERM
 * server.close().await(); vertx.close().await();
 * signal.stopped();
 * }</pre>
 */
final class StopSignal {

    /** How long a shutdown waits for the servers to close. */
    static final int GRACE_SECONDS = 30;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** A signal given by the JVM's shutdown; installs a shutdown hook. */
    static StopSignal onJvmShutdown() {
        StopSignal signal = new StopSignal();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            signal.requestStop();
            try {
                signal.stopped.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "agentfuse-shutdown"));
        return signal;
    }

    /** A signal given only by {@link #requestStop()}: for tests. */
    static StopSignal manual() {
        return new StopSignal();
    }

    /** Asks the command to stop. */
    void requestStop() {
        stopRequested.countDown();
    }

    /** Blocks until a stop is requested. */
    void awaitStopRequest() throws InterruptedException {
        stopRequested.await();
    }

    /** The command has closed everything; a waiting shutdown may proceed. */
    void stopped() {
        stopped.countDown();
    }

    /** Whether the command has reported {@link #stopped()}, waiting up to {@code seconds}. */
    boolean awaitStopped(long seconds) throws InterruptedException {
        return stopped.await(seconds, TimeUnit.SECONDS);
    }
}
