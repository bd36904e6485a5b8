package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.AttemptContext;
import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.ObservedEvent;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.internal.CancellingFuture;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.agentfuse.gateway.upstream.Redaction;
import io.agentfuse.gateway.upstream.StreamTimeouts;
import io.agentfuse.gateway.upstream.UpstreamClient;
import io.agentfuse.gateway.upstream.UpstreamModelRefusedException;
import io.agentfuse.gateway.upstream.UpstreamRequest;
import io.agentfuse.gateway.upstream.UpstreamStream;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The pipeline's guard and upstream steps: runs a request's planned steps as a
 * {@link FallbackChain}, each behind its own guard, each attempt a call through the one pooled
 * {@link UpstreamClient}.
 *
 * <p>A complete answer is one guarded unit, its translation into the caller's dialect (or its
 * reading, for the gateway's own {@link ModelClient}: {@link Delivery#answer}) included. A stream's guarded unit is "a stream whose answer has
 * begun" ({@link AnswerOpening}: content, a finish or an error, not a mere preamble):
 * {@link UpstreamClient#streamCancellable} completes only then, so retries, fallbacks and hedges
 * stay invisible to the caller until its first byte; the model's
 * {@code firstTokenTimeout} bounds the wait for that event and its {@code streamIdleTimeout} the
 * silence between later events. Cancelling the returned future (the caller went away, a deadline passed)
 * cancels the attempt in flight, which resets its upstream request.
 *
 * <p>The chain of a {@link Route} is made once, for the guards its steps have, and kept on the
 * route: its steps read the request's own planned steps from their input ({@link ChainRun}), so
 * a request pays for running the chain, not for building it. A guard replaced since (a reload, an
 * evicted breaker) makes a new chain.
 *
 * <p>Every attempt is counted in the request's {@link CallTrace} and, with the outcome its guard
 * gave it, in the metrics. Thread-safe: one instance serves every request of a pipeline.
 */
final class ChainExecution {

    /** The shortest limit handed to the upstream client, which refuses less than a millisecond. */
    private static final long MIN_LIMIT_NANOS = 1_000_000L;

    private final UpstreamClient client;
    private final GatewayMetrics metrics;
    private final RefusedModels refusedModels = new RefusedModels();

    ChainExecution(UpstreamClient client, GatewayMetrics metrics) {
        this.client = client;
        this.metrics = metrics;
    }

    /**
     * Runs {@code plan}'s steps within its deadline, hedged by its policy, each call cut off charged
     * to {@code budget}, for an answer delivered as {@code delivery} says; the future fails as
     * {@link FallbackChain#executeAsync(Object, Deadline)} does.
     */
    CompletableFuture<FallbackResult<StepAnswer>> run(Plan plan, Delivery delivery, CallTrace trace, BudgetTicket budget) {
        CompletableFuture<FallbackResult<StepAnswer>> result = chainOf(plan)
                .executeAsync(new ChainRun(plan.steps(), delivery, trace, budget,
                        plan.callersModelName() ? plan.steps().get(0) : null), plan.deadline());
        result.whenComplete((answer, error) -> {
            if (answer != null) {
                countPassed(answer.passed(), answer.step());
            } else if (OutcomeClassifier.unwrap(error) instanceof FallbackExhaustedException exhausted) {
                countPassed(exhausted.steps(), GatewayMetrics.NO_STEP);
            }
        });
        return result;
    }

    private FallbackChain<ChainRun, StepAnswer> chainOf(Plan plan) {
        Compiled compiled = plan.route().compiled();
        if (compiled == null || !compiled.runs(this, plan.steps(), plan.hedge())) {
            compiled = new Compiled(this, plan.steps(), plan.hedge());
            plan.route().compiled(compiled);
        }
        return compiled.chain();
    }

    /**
     * The chain for steps with these guards, in this order, hedged by {@code hedge} ({@code null}:
     * never); step {@code i} runs the request's step {@code i}.
     */
    private FallbackChain<ChainRun, StepAnswer> build(List<PlannedStep> steps, HedgePolicy hedge) {
        // Each attempt is counted as its guard classified it, once, and ends its span in the request's trace.
        FallbackChain.Builder<ChainRun, StepAnswer> chain = FallbackChain.<ChainRun, StepAnswer>builder()
                .observeAttempts((run, name, attempt) -> {
                    metrics.upstreamAttempt(name, attempt.outcome());
                    run.trace().attemptEnded(name, attempt, run.steps());
                })
                .hedge(hedge);
        for (int i = 0; i < steps.size(); i++) {
            int index = i;
            chain.asyncStep(steps.get(i).name(), steps.get(i).guard(), run -> run.steps().get(index).skipReason(),
                    (run, context) -> attempt(run.steps().get(index), run, context));
        }
        return chain.build();
    }

    /**
     * A route's chain, with the guards and hedge policy it was made for and the execution whose
     * client and metrics its steps use: it runs a plan only if all are still the same.
     */
    static final class Compiled {
        private final ChainExecution owner;
        private final Guard[] guards;
        private final HedgePolicy hedge;
        private final FallbackChain<ChainRun, StepAnswer> chain;

        private Compiled(ChainExecution owner, List<PlannedStep> steps, HedgePolicy hedge) {
            this.owner = owner;
            this.hedge = hedge;
            this.guards = new Guard[steps.size()];
            for (int i = 0; i < guards.length; i++) {
                guards[i] = steps.get(i).guard();
            }
            this.chain = owner.build(steps, hedge);
        }

        boolean runs(ChainExecution execution, List<PlannedStep> steps, HedgePolicy hedge) {
            if (execution != owner || steps.size() != guards.length || hedge != this.hedge) {
                return false;
            }
            for (int i = 0; i < guards.length; i++) {
                if (steps.get(i).guard() != guards[i]) {
                    return false;
                }
            }
            return true;
        }

        FallbackChain<ChainRun, StepAnswer> chain() {
            return chain;
        }
    }

    /**
     * One request's input to its route's chain: its planned steps, how its answer is delivered, its trace, its
     * budget, and the step that calls the model by the caller's own name ({@code null}: none).
     */
    record ChainRun(List<PlannedStep> steps, Delivery delivery, CallTrace trace, BudgetTicket budget,
                    PlannedStep callersStep) {
    }

    private CompletableFuture<StepAnswer> attempt(PlannedStep step, ChainRun run, AttemptContext context) {
        Map<String, String> traceContext = run.trace().attemptStarted(step);
        UpstreamRequest upstream = traceContext.isEmpty() ? step.upstream() : withHeaders(step.upstream(), traceContext);
        boolean stream = run.delivery().stream();
        long started = System.nanoTime();
        String provider = step.provider().name();
        String model = step.model().upstreamModel();
        // A call cut after it was sent (a lost hedge, a timeout, a caller gone) cost its provider the prompt.
        Runnable cutOff = run.budget().cutOffOf(step.model());
        boolean callers = step == run.callersStep();
        if (stream) {
            Dialect dialect = step.provider().dialect();
            AnswerOpening opening = new AnswerOpening(dialect, dialect == run.delivery().shownAsIs(), context::firstContent);
            CompletableFuture<UpstreamStream> opened = client.streamCancellable(upstream, timeouts(step, context),
                    opening, cutOff);
            opened.whenComplete((first, error) -> {
                if (error instanceof CancellationException) {
                    return; // the caller or the guard gave up on it: not a call that ended
                }
                if (error == null) {
                    metrics.firstToken(provider, model, System.nanoTime() - started);
                } else {
                    metrics.modelCall(provider, model, System.nanoTime() - started, null, outcomeOf(step, error, callers));
                }
            });
            // The stream's answer has begun (its opening checked): it wins a hedge race.
            return CancellingFuture.linked(opened, first -> {
                StepAnswer answer = new StepAnswer(step, first, checkedOpening(step, first, opening), started);
                context.firstContent();
                return answer;
            }, UpstreamStream::cancel, callers ? ChainExecution::callersRefusal : Function.identity());
        }
        // Cancelling the answer (the guard's timeout, a caller who left) cancels the call itself. The
        // guard's limit, the model's timeout cut to the deadline, is armed before the call starts:
        // a timer of the call's own for the same limit would never fire first.
        // Put in the caller's words (or read) on arrival: an answer that cannot be is this step's failed attempt.
        Delivery delivery = run.delivery();
        CompletableFuture<StepAnswer> answered = client.sendCancellable(upstream, null,
                complete -> delivery.answer(step, complete, run.budget(), started), cutOff);
        answered.whenComplete((answer, error) -> {
            if (!(error instanceof CancellationException)) {
                metrics.modelCall(provider, model, System.nanoTime() - started,
                        answer == null ? null : answer.response().usage(), error == null ? null : outcomeOf(step, error, callers));
            }
        });
        return callers ? CancellingFuture.linked(answered, Function.identity(), ignored -> { }, ChainExecution::callersRefusal)
                : answered;
    }

    /**
     * A provider's refusal of a model name the caller wrote ({@link Plan#callersModelName}) as the 4xx it is,
     * the caller's: passed on, not fallen back from, not counted by a breaker (docs/design.md §2).
     */
    private static Throwable callersRefusal(Throwable error) {
        return OutcomeClassifier.unwrap(error) instanceof UpstreamModelRefusedException refused ? refused.refusal() : error;
    }

    /** {@code request} with {@code more} headers (a traced attempt's {@code traceparent}). */
    private static UpstreamRequest withHeaders(UpstreamRequest request, Map<String, String> more) {
        Map<String, String> headers = new java.util.HashMap<>(request.headers());
        headers.putAll(more);
        return new UpstreamRequest(request.provider(), request.body(), headers, request.encoded());
    }

    /**
     * The outcome name a failed call's error stands for, as the step's breaker classifies it: a refusal of
     * the caller's own model name ({@code callers}) as the caller's 4xx.
     */
    private static String outcomeOf(PlannedStep step, Throwable error, boolean callers) {
        return step.guard().classifier().classify(OutcomeClassifier.unwrap(callers ? callersRefusal(error) : error)).name();
    }

    /**
     * {@code stream}'s first event as observed ({@code null} if none came), unless its opening — the
     * events up to the one that began the answer ({@link AnswerOpening}) — says the stream failed: an
     * error event or an event that is not of its dialect. Nothing has reached the caller yet, so that
     * is a failed attempt (retried, fallen back from) rather than a broken stream: a provider error
     * counts as the status it stands for (overloaded 529, rate limited 429, else 500), a malformed
     * event as {@code ERROR}.
     */
    private static ObservedEvent checkedOpening(PlannedStep step, UpstreamStream stream, AnswerOpening opening) {
        Dialect dialect = step.provider().dialect();
        StreamEvent.Error error = opening.error();
        if (error != null) {
            if (error.cause() != StreamEvent.Error.Cause.PROVIDER) {
                throw new MalformedAnswerException("provider " + step.provider().name() + " began its stream with "
                        + Redaction.of(step.provider(), error.message().replaceFirst("^upstream sent ", "")));
            }
            int status = switch (dialect.streamErrorOutcome(error.type())) {
                case OVERLOADED -> 529;
                case RATE_LIMITED -> 429;
                default -> 500;
            };
            throw UpstreamStatusException.builder(status).body(Redaction.of(step.provider(), opening.errorEvent().data()))
                    .answerHeaders(Redaction.of(step.provider(), stream.headers())) // its request id, for the caller's error
                    .contentType("application/json").build();
        }
        SseEvent first = stream.firstEvent();
        // The relay's translator goes on with the decoder that observed the first event (see ObservedEvent).
        return first == null ? null : ObservedEvent.of(dialect, first);
    }

    private static StreamTimeouts timeouts(PlannedStep step, AttemptContext context) {
        // A stream may run long, but not stall longer than streamIdleTimeout between two events.
        // The wait for the first event is cut to the request's deadline, like a complete call.
        Duration first = step.model().firstTokenTimeout();
        long left = context.timeLeftNanos();
        if (left < first.toNanos()) {
            first = Duration.ofNanos(Math.max(left, MIN_LIMIT_NANOS));
        }
        return new StreamTimeouts(first, step.model().streamIdleTimeout());
    }

    /**
     * Counts each step passed over with the step the chain went on to: the next one passed over, or
     * {@code answeredBy}; a model its provider no longer serves is told to the operator once.
     */
    private void countPassed(List<StepFailure> passed, String answeredBy) {
        for (int i = 0; i < passed.size(); i++) {
            String to = i + 1 < passed.size() ? passed.get(i + 1).step() : answeredBy;
            metrics.fallback(passed.get(i).step(), to, FallbackHeader.reasonOf(passed.get(i)));
            refusedModels.note(passed.get(i));
        }
    }
}
