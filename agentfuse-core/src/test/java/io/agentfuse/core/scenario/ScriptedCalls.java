package io.agentfuse.core.scenario;

import io.agentfuse.core.AttemptContext;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.OutcomeClassifier;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A call whose every attempt ends as a script says, after the scripted time on a
 * {@link ManualClock}, for the synchronous and the asynchronous path alike: the synchronous call
 * spends its time by advancing the clock in 100 ms steps (and stops when its thread is interrupted,
 * as a real blocking call does when its timeout fires); the asynchronous one completes on the
 * clock's schedule. So one script gives both paths the same timeline.
 */
final class ScriptedCalls {

    /** How long a hanging attempt may run before the test is broken rather than the guard. */
    private static final long HANG_LIMIT_MILLIS = 3_600_000L;

    /** One attempt: it ends after {@code millis} (-1: never) with {@code failure}, or with {@code value}. */
    record Step(long millis, String value, RuntimeException failure, long firstContentMillis) {
    }

    private final ManualClock clock;
    private final List<Step> script;
    private final List<Long> startMillis = new CopyOnWriteArrayList<>();

    ScriptedCalls(ManualClock clock, Step... script) {
        this.clock = clock;
        this.script = List.of(script);
    }

    static Step answers(String value, long afterMillis) {
        return new Step(afterMillis, value, null, -1);
    }

    static Step fails(RuntimeException failure, long afterMillis) {
        return new Step(afterMillis, null, failure, -1);
    }

    static Step hangs() {
        return new Step(-1, null, null, -1);
    }

    /** Streams: its first content after {@code firstMillis}, then it answers {@code value} after {@code afterMillis}. */
    static Step streams(String value, long firstMillis, long afterMillis) {
        return new Step(afterMillis, value, null, firstMillis);
    }

    /** How a future driven on the clock ended: its value or failure (unwrapped), and when, in milliseconds. */
    record Outcome<T>(T value, Throwable failure, long atMillis) {
    }

    /**
     * Moves {@code clock} on in 100 ms steps (running what falls due) until {@code future} is done,
     * for at most {@code limitMillis}; returns how and when it ended, or fails the test if it never did.
     */
    static <T> Outcome<T> driveToEnd(ManualClock clock, CompletableFuture<T> future, long limitMillis) {
        long[] endedAt = {-1};
        future.whenComplete((value, error) -> endedAt[0] = clock.nanoTime() / 1_000_000L);
        for (long step = 0; step < limitMillis / 100 && !future.isDone(); step++) {
            clock.advanceMillis(100);
        }
        if (!future.isDone()) {
            throw new AssertionError("the call never ended within " + limitMillis + " ms on the clock");
        }
        return future.handle((value, error) -> new Outcome<>(value, OutcomeClassifier.unwrap(error), endedAt[0])).join();
    }

    /** When each attempt started, in milliseconds on the clock. */
    List<Long> startMillis() {
        return List.copyOf(startMillis);
    }

    private Step next() {
        startMillis.add(nowMillis());
        return script.get(Math.min(startMillis.size(), script.size()) - 1);
    }

    long nowMillis() {
        return clock.nanoTime() / 1_000_000L;
    }

    /** The synchronous call. */
    Supplier<String> sync() {
        return () -> {
            Step step = next();
            long end = step.millis() < 0 ? nowMillis() + HANG_LIMIT_MILLIS : nowMillis() + step.millis();
            while (nowMillis() < end) {
                clock.advanceMillis(100);
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted"); // its timeout fired: the guard reports it
                }
            }
            if (step.millis() < 0) {
                throw new AssertionError("a hanging attempt was never stopped");
            }
            if (step.failure() != null) {
                throw step.failure();
            }
            return step.value();
        };
    }

    /** The asynchronous call. */
    Supplier<CompletableFuture<String>> async() {
        return () -> start(null);
    }

    /** The asynchronous call that signals its first content to its attempt. */
    Function<AttemptContext, CompletableFuture<String>> asyncWithContext() {
        return this::start;
    }

    private CompletableFuture<String> start(AttemptContext attempt) {
        Step step = next();
        CompletableFuture<String> answer = new CompletableFuture<>();
        if (attempt != null && step.firstContentMillis() >= 0) {
            clock.schedule(attempt::firstContent, step.firstContentMillis() * 1_000_000L);
        }
        if (step.millis() >= 0) {
            clock.schedule(() -> {
                if (step.failure() != null) {
                    answer.completeExceptionally(step.failure());
                } else {
                    answer.complete(step.value());
                }
            }, step.millis() * 1_000_000L);
        }
        return answer;
    }
}
