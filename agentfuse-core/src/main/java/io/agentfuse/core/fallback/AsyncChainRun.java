package io.agentfuse.core.fallback;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.event.HedgeListener;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.internal.LostAnswers;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One asynchronous execution of a {@link FallbackChain} and the future of its result: a step starts
 * when the one before failed in a way worth passing over, or under a {@link HedgePolicy} when the
 * step in flight has no result by the hedge delay (once per run). Of two steps in flight the first
 * to produce a result (an answer, or its first content) wins and the other is cancelled, its guard
 * giving its permit back unjudged; a failure waits for the other step; a hedge skipped without a
 * call makes way for the step after it. Cancelling the run cancels the steps in flight. Decisions
 * are made under the run's lock; steps are started and cancelled, and the result completed, outside it.
 */
final class AsyncChainRun<I, T> extends CompletableFuture<FallbackResult<T>> {

    private final List<ChainStep<I, T>> steps;
    private final I input;
    private final Deadline deadline;
    private final HedgePolicy hedge;
    private final HedgeListener listener;
    private final Executor syncOn;
    private final PassedSteps passed = new PassedSteps();
    private int next;
    /** The step in flight (the earlier one while hedged), the hedge beside it, and the first to a result. */
    private ChainLane<I, T> first;
    private ChainLane<I, T> second;
    private ChainLane<I, T> winner;
    private boolean hedged;
    /** The step a hedge was started beside: the one that was slow. */
    private String slowStep;
    private Scheduler.Cancellable hedgeTimer;

    AsyncChainRun(List<ChainStep<I, T>> steps, I input, Deadline deadline, HedgePolicy hedge, HedgeListener listener,
                  Executor syncOn) {
        this.steps = steps;
        this.input = input;
        this.deadline = deadline;
        this.hedge = hedge;
        this.listener = listener;
        this.syncOn = syncOn;
    }

    /** Starts the first step that can start; a hedged run counts in the hedge budget. */
    AsyncChainRun<I, T> start() {
        if (hedge != null) {
            hedge.budget().countRequest();
        }
        advance();
        return this;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            cancelAll();
        }
        return cancelled;
    }

    /** Nothing is in flight: starts the next step that can start, or ends the chain when none is left. */
    private void advance() {
        ChainLane<I, T> lane;
        synchronized (this) {
            if (isDone()) {
                return; // cancelled by the caller: nobody waits for another step
            }
            try {
                lane = nextLane(false);
            } catch (RuntimeException e) {
                completeExceptionally(e); // a throwing skipWhen
                return;
            }
            first = lane;
        }
        if (lane == null) {
            completeExceptionally(new FallbackExhaustedException(passed.list()));
            return;
        }
        lane.launch(input, deadline, syncOn, isCancelled(), this::ended);
        if (hedge != null) {
            armHedge(lane);
        }
    }

    /** The next step that may start (those that may not are passed over); {@code null} when none is left. */
    private ChainLane<I, T> nextLane(boolean isHedge) {
        while (next < steps.size()) {
            int index = next++;
            StepFailure notStarted = steps.get(index).notStarted(input, deadline);
            if (notStarted == null) {
                return new ChainLane<>(index, steps.get(index), input, isHedge, hedge == null ? null : this::firstContent);
            }
            passed.add(index, notStarted);
        }
        return null;
    }

    private void armHedge(ChainLane<I, T> lane) {
        long delay = hedge.delayNanos(lane.step.guard().latencyEstimate());
        if (delay < 0) {
            return; // an adaptive delay is unknown until the step has enough recent samples
        }
        Scheduler.Cancellable timer = lane.step.guard().scheduler().schedule(() -> hedgeDue(lane), delay);
        synchronized (this) {
            if (first == lane && second == null && winner == null && !hedged && !isDone()) {
                hedgeTimer = timer;
                return;
            }
        }
        timer.cancel();
    }

    /** The hedge delay passed with {@code lane} still alone and without a result: starts the next step too, if it may. */
    private void hedgeDue(ChainLane<I, T> lane) {
        synchronized (this) {
            if (isDone() || first != lane || second != null || winner != null || hedged) {
                return;
            }
            hedgeTimer = null;
        }
        if (hedge.budget().tryHedge()) {
            startHedge(lane);
        } else if (listener != null) {
            listener.onHedgeRefused(lane.step.name(), HedgeListener.Refusal.BUDGET);
        }
    }

    /** Starts the next step that may start beside {@code primary}. */
    private void startHedge(ChainLane<I, T> primary) {
        ChainLane<I, T> lane;
        synchronized (this) {
            if (isDone() || first != primary || second != null || winner != null) {
                return;
            }
            try {
                lane = nextLane(true);
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            second = lane;
            hedged = lane != null;
            slowStep = primary.step.name();
        }
        if (listener != null && lane == null) {
            listener.onHedgeRefused(primary.step.name(), HedgeListener.Refusal.NO_STEP);
        } else if (listener != null) {
            listener.onHedgeStarted(primary.step.name(), lane.step.name());
        }
        if (lane == null) {
            return;
        }
        lane.launch(input, deadline, syncOn, isCancelled(), this::ended);
    }

    /** {@code lane}'s step signalled its first content: it wins the race, and no hedge follows. */
    private void firstContent(ChainLane<I, T> lane) {
        ChainLane<I, T> loser;
        synchronized (this) {
            if (isDone() || lane.abandoned() || winner != null) {
                return;
            }
            winner = lane;
            hedged = true;
            loser = lane == first ? second : first;
            first = lane;
            second = null;
        }
        won(lane, loser);
    }

    private void ended(ChainLane<I, T> lane, T value, Throwable error) {
        if (lane.abandoned() || isDone()) {
            if (error == null) {
                LostAnswers.close(value); // a loser's answer, or one nobody waits for any more
            }
            return;
        }
        StepFailure failure;
        try {
            failure = error != null ? lane.step.passOrThrow(OutcomeClassifier.unwrap(error), lane.last)
                    : lane.step.failedResult(value, lane.last);
        } catch (RuntimeException | Error notPassed) { // an Error as it is: the caller's own JVM failed
            fail(notPassed);
            return;
        }
        if (failure == null) {
            answered(lane, value);
            return;
        }
        ChainLane<I, T> hedgeAgain = null;
        boolean nothingInFlight;
        Scheduler.Cancellable timer;
        synchronized (this) {
            if (winner != null && winner != lane) {
                return; // it lost to a first content while failing: it is being cancelled
            }
            passed.add(lane.index, failure);
            if (first == lane) {
                first = second;
            }
            second = null;
            if (winner == lane) {
                winner = null; // it failed after its first content: the chain goes on without a race
            }
            nothingInFlight = first == null;
            timer = nothingInFlight ? hedgeTimer : null;
            if (nothingInFlight) {
                hedgeTimer = null;
            } else if (lane.isHedge && failure.skipped() && winner == null) {
                hedgeAgain = first; // the hedge was not even called: the step after it takes its place
            }
        }
        if (timer != null) {
            timer.cancel();
        }
        if (hedgeAgain != null) {
            startHedge(hedgeAgain);
        } else if (nothingInFlight) {
            advance();
        }
    }

    private void answered(ChainLane<I, T> lane, T value) {
        ChainLane<I, T> loser;
        boolean newWinner;
        synchronized (this) {
            if (winner != null && winner != lane) {
                LostAnswers.close(value); // both answered at once: the other won
                return;
            }
            newWinner = winner == null;
            winner = lane;
            loser = lane == first ? second : first;
            first = null;
            second = null;
        }
        if (newWinner) {
            won(lane, loser);
        }
        if (!complete(new FallbackResult<>(value, lane.step.name(), lane.index, passed.list(), lane.isHedge))) {
            LostAnswers.close(value);
        }
    }

    /** {@code lane} produced the first result: the timer and {@code loser} are cancelled. */
    private void won(ChainLane<I, T> lane, ChainLane<I, T> loser) {
        Scheduler.Cancellable timer;
        synchronized (this) {
            timer = hedgeTimer;
            hedgeTimer = null;
        }
        if (timer != null) {
            timer.cancel();
        }
        if (loser != null) {
            loser.cancel();
        }
        if (lane.isHedge && listener != null) {
            listener.onHedgeWon(slowStep, lane.step.name());
        }
    }

    private void fail(Throwable failure) {
        completeExceptionally(failure);
        cancelAll();
    }

    private void cancelAll() {
        ChainLane<I, T> one;
        ChainLane<I, T> two;
        Scheduler.Cancellable timer;
        synchronized (this) {
            one = first;
            two = second;
            timer = hedgeTimer;
            hedgeTimer = null;
        }
        if (timer != null) {
            timer.cancel();
        }
        if (one != null) {
            one.cancel();
        }
        if (two != null) {
            two.cancel();
        }
    }
}
