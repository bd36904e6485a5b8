package io.agentfuse.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * How a long-running command ({@code serve}, {@code mock-provider}) learns that it should stop,
 * and tells that it has: from SIGTERM and SIGINT (Ctrl-C) in production, by hand in tests.
 *
 * <p>The signals are handled here rather than by the JVM's shutdown: a JVM stopped by SIGTERM runs
 * its shutdown hooks and exits with 143 whatever the command returns, while a command that drains
 * (docs/design.md §14) and returns makes the process exit with its own code, 0. A second signal asks to
 * stop at once ({@link #awaitUrgentStop}): an operator pressing Ctrl-C twice does not wait for a
 * drain. Where the signals cannot be taken over (the JVM started with {@code -Xrs}), a shutdown hook
 * still requests the stop and waits up to {@link #expectStopWithin} for the command to close.
 *
 * <pre>{@code
 * StopSignal signal = StopSignal.onSignals();
 * signal.awaitStopRequest();   // blocks until SIGTERM
 * gateway.shutDown().await(); vertx.close().await();
 * signal.stopped();
 * }</pre>
 *
 * <p>Thread-safe.
 */
final class StopSignal {

    /** How long a JVM shutdown waits for the servers to close unless told otherwise. */
    static final Duration DEFAULT_STOP_TIME = Duration.ofSeconds(30);

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch urgent = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicInteger requests = new AtomicInteger();
    private volatile Duration stopTime = DEFAULT_STOP_TIME;

    /** A signal given by SIGTERM and SIGINT (or, failing those, the JVM's shutdown). */
    static StopSignal onSignals() {
        StopSignal signal = new StopSignal();
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), received -> signal.requestStop());
            } catch (IllegalArgumentException | UnsupportedOperationException taken) {
                // -Xrs, or a platform without it: the shutdown hook below still stops the command.
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            signal.requestStop();
            try {
                signal.stopped.await(signal.stopTime.toMillis(), TimeUnit.MILLISECONDS);
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

    /** Asks the command to stop; asked again, to stop at once. */
    void requestStop() {
        if (requests.incrementAndGet() > 1) {
            urgent.countDown();
        }
        stopRequested.countDown();
    }

    /** Blocks until a stop is requested. */
    void awaitStopRequest() throws InterruptedException {
        stopRequested.await();
    }

    /** Whether a second stop was requested within {@code millis}: the command should stop at once. */
    boolean awaitUrgentStop(long millis) throws InterruptedException {
        return urgent.await(millis, TimeUnit.MILLISECONDS);
    }

    /** How long the command may take to stop (its drain), for a JVM shutdown to wait. */
    void expectStopWithin(Duration time) {
        stopTime = time;
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
