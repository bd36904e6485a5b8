package io.agentfuse.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * A guarded call for tests that notes the {@link ManualClock} time of every invocation, so that a
 * test can assert a retry timeline to the millisecond.
 */
public final class AttemptLog {

    private final ManualClock clock;
    private final List<Long> millis = new CopyOnWriteArrayList<>();
    private final List<RuntimeException> thrown = new CopyOnWriteArrayList<>();

    public AttemptLog(ManualClock clock) {
        this.clock = clock;
    }

    /** A call that fails on every invocation with a fresh error made from the attempt number (1-based). */
    public <T> Supplier<T> failingWith(IntFunction<? extends RuntimeException> error) {
        return () -> {
            throw record(error);
        };
    }

    /** The asynchronous twin of {@link #failingWith}: every stage fails. */
    public <T> Supplier<CompletionStage<T>> failingAsyncWith(IntFunction<? extends RuntimeException> error) {
        return () -> CompletableFuture.failedFuture(record(error));
    }

    /** A call that answers {@code value} and notes its time. */
    public <T> Supplier<T> answering(T value) {
        return () -> {
            millis.add(nowMillis());
            return value;
        };
    }

    private RuntimeException record(IntFunction<? extends RuntimeException> error) {
        millis.add(nowMillis());
        RuntimeException failure = error.apply(millis.size());
        thrown.add(failure);
        return failure;
    }

    private long nowMillis() {
        return clock.nanoTime() / 1_000_000L;
    }

    /** The clock time, in milliseconds, of each invocation so far. */
    public List<Long> millis() {
        return List.copyOf(millis);
    }

    /** How many times the call ran. */
    public int count() {
        return millis.size();
    }

    /** The error thrown by the most recent invocation. */
    public RuntimeException lastThrown() {
        return thrown.get(thrown.size() - 1);
    }
}
