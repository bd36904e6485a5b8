package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.MultiMap;

import java.util.concurrent.CompletableFuture;

/**
 * How a streamed text answer that breaks after its first byte is continued, for a request whose
 * model says {@code streamContinuation: true} (docs/streams.md, continuation): the steps of its
 * chain after the one that answered run again as a chain of their own — guarded, retried and
 * fallen back from as any chain, under the request's deadline, without a hedge — each asked to
 * continue the text already sent ({@link ModelRouter#continuation}). Its {@link StreamRelay}
 * re-encodes every event ({@link StreamTranslator#continuable}) and relays the continuation in the
 * same response, without a second start event, its usage added to the first stream's; each priced
 * at its own model's price ({@link #used}).
 *
 * <p>Asked once per answer: a continuation that breaks too ends the stream with the error event,
 * as does an answer with a tool call begun (a half-made call cannot be handed to another model).
 *
 * <p>One per request ({@link #OFF} when its model does not continue). Confined to the request's context.
 */
final class StreamContinuation {

    /** No continuation: a broken stream ends with its error event. */
    static final StreamContinuation OFF = new StreamContinuation(null, null, null, null, null, null, null);

    /** The request without the caller's bytes, and its plan without the steps' requests: a continuation writes its own. */
    private final ModelRequest request;
    private final Plan plan;
    private final MultiMap callerHeaders;
    private final ContextStage context;
    private final ChainExecution chains;
    private final CallTrace trace;
    private final BudgetTicket budget;
    private boolean asked;
    /** The model whose stream broke, and the tokens it had reported by then; set once a continuation is asked for. */
    private ModelConfig broken;
    private Usage brokenUsage = Usage.ZERO;
    /** The continuation asked for, until its outcome is taken or it is given up. */
    private CompletableFuture<FallbackResult<StepAnswer>> pending;

    private StreamContinuation(ModelRequest request, Plan plan, MultiMap callerHeaders, ContextStage context,
                               ChainExecution chains, CallTrace trace, BudgetTicket budget) {
        this.request = request;
        this.plan = plan;
        this.callerHeaders = callerHeaders;
        this.context = context;
        this.chains = chains;
        this.trace = trace;
        this.budget = budget;
    }

    /**
     * The continuation of {@code request}'s stream as planned in {@code plan} for a caller that sent
     * {@code callerHeaders}, its calls cut off charged to {@code budget}, or {@link #OFF} when its
     * model has it off.
     */
    static StreamContinuation of(ModelRequest request, Plan plan, MultiMap callerHeaders, ExchangeStages stages,
                                 CallTrace trace, BudgetTicket budget) {
        return request.chat().stream() && request.model().streamContinuation()
                ? new StreamContinuation(request.withoutCallerBytes(), plan.withoutRequests(), callerHeaders,
                        stages.context(), stages.chains(), trace, budget)
                : OFF;
    }

    /** Whether broken streams are continued (the relay then re-encodes every event). */
    boolean on() {
        return request != null;
    }

    /**
     * Asks the steps after {@code answered}, whose stream broke after {@code translator} relayed a
     * text answer, to continue it: the future completes with a stream whose answer has begun, or
     * fails as a chain does; cancelling it cancels the attempt. {@code null} when there is nothing to
     * continue with: off, asked before, a tool call begun, or no step after {@code answered}.
     */
    CompletableFuture<FallbackResult<StepAnswer>> after(PlannedStep answered, StreamTranslator translator) {
        if (!on() || asked || !translator.continuable()) {
            return null;
        }
        asked = true;
        broken = answered.model();
        brokenUsage = translator.usage();
        Plan next = ModelRouter.continuation(request, plan, callerHeaders, answered, translator.sentText(), context);
        pending = next.steps().isEmpty() ? null : chains.run(next, Delivery.stream(request.chat().dialect(), true), trace, budget);
        return pending;
    }

    /**
     * What the stream {@code relay} relayed, now ended, spent as {@code budget} charges it
     * ({@link BudgetTicket#charged}): its usage at its end — what a broken stream reported before it was
     * continued at its own model's price, the rest at the price of the model that answered last — or,
     * broken before its end or ended without telling its tokens, its reservation.
     */
    BudgetAmount spent(BudgetTicket budget, StreamRelay relay) {
        Usage usage = relay.usage();
        BudgetAmount told = broken == null ? budget.used(usage, relay.answeredBy())
                : budget.used(brokenUsage, broken).plus(budget.used(usage.minus(brokenUsage), relay.answeredBy()));
        return budget.charged(told, relay.completed() && !usage.isZero());
    }

    /**
     * Tells {@code reported} the usage of the stream {@code relay} relayed, now ended, if it ended whole
     * from one call: a continued stream's usage is that of two prompts, the caller's and the continuation's.
     */
    void report(ContextStage.ReportedUsage reported, StreamRelay relay) {
        if (relay.completed() && !asked) {
            reported.answered(relay.answeredBy(), relay.usage());
        }
    }

    /** Whether a continuation was asked for and has neither answered nor been given up. */
    boolean underWay() {
        return pending != null;
    }

    /**
     * Takes the continuation's outcome, {@code result} (or {@code null} for a failure): {@code false}
     * when it was given up meanwhile, and then the stream it brought is closed and its permit released.
     */
    boolean taken(FallbackResult<StepAnswer> result) {
        if (pending != null) {
            pending = null;
            return true;
        }
        if (result != null) {
            result.value().stream().cancel();
            result.value().permit().released();
        }
        return false;
    }

    /** Gives up the continuation under way, if any: its attempt is cancelled. */
    void stop() {
        CompletableFuture<FallbackResult<StepAnswer>> given = pending;
        pending = null;
        if (given != null) {
            given.cancel(true);
        }
    }
}
