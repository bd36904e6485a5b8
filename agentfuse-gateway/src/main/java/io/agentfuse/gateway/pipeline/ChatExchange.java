package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.gateway.budget.Caller;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.ClientRetryRules;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One model request through the pipeline, from body to answer: client key → parse → budget stage →
 * context stage → PDF pages ({@link DocumentPages}) → subagent admission → route → guarded chain →
 * respond (complete or streamed), or the error the table prescribes. It also owns what spans the whole
 * exchange: a caller that disconnects cancels the chain (and so the upstream call) or the stream; a
 * subagent's deadline ends it with a timeout; the budget reservation is settled with what was spent, the
 * subagent place released and the request counted when the exchange ends, however it ends. Confined to
 * the request's context: the chain's completion and the relay hop back to it.
 */
final class ChatExchange {

    /** The status recorded for an exchange the caller abandoned (nginx's "client closed request"). */
    private static final int CLIENT_CLOSED = 499;

    private final HttpServerRequest caller;
    private final HttpServerResponse response;
    private final Dialect dialect;
    private final ExchangeStages stages;
    private final Context context = Vertx.currentContext();
    private final CallTrace trace = new CallTrace();
    private final long startedNanos = System.nanoTime();
    private final String requestId;
    private ModelRequest request;
    private CompletableFuture<FallbackResult<StepAnswer>> chain;
    private StreamRelay relay;
    private StreamContinuation continuation;
    private SubagentLimit.Permit permit;
    private BudgetTicket budget = BudgetTicket.NONE;
    /** What a complete answer used, once it came. */
    private BudgetAmount used;
    private ContextStage.ReportedUsage reported = ContextStage.ReportedUsage.IGNORED; // the prompt's usage, told
    private long deadlineTimer = -1;
    private Duration callerDeadline; // the caller's x-agentfuse-deadline, or null
    private boolean answered;
    // Links of the context's list of exchanges under way (InFlightExchanges), confined to the context.
    ChatExchange previous;
    ChatExchange next;
    boolean linked;

    ChatExchange(HttpServerRequest caller, Dialect dialect, ExchangeStages stages) {
        this.caller = caller;
        this.response = caller.response();
        this.dialect = dialect;
        this.stages = stages;
        this.requestId = RequestLog.idOf(caller, response);
    }

    /**
     * Runs the exchange on the caller's {@code body}, parsed and not kept (a stream would hold it for as
     * long as it runs). Whatever fails in it is answered here — a bug as an {@code internal_error}
     * — since nothing around it (no router, when it is served directly) would end the response.
     */
    void run(Buffer body) {
        // Called once: when the response has been written, or when the connection closed before it was.
        response.endHandler(v -> ended());
        response.closeHandler(v -> callerGone());
        stages.inFlight().add(this);
        if (stages.tracing().enabled()) {
            trace.traced(stages.tracing().request(caller.headers()));
        }
        Future<BudgetTicket> admitted;
        try {
            callerDeadline = DeadlineHeader.parse(caller.getHeader(DeadlineHeader.NAME));
            Caller who = stages.budgets().clients().identify(caller, dialect == Dialects.GEMINI); // served on a Google route
            request = CallerWindow.of(RequestParser.parse(dialect, body, caller.getHeader(RequestParser.SUBAGENT_HEADER),
                    stages.config().get(), stages.router().models()), stages.config().get(), caller.headers());
            admitted = stages.budgets().admit(request, who);
        } catch (GatewayException invalid) {
            fail(invalid);
            return;
        } catch (RuntimeException | Error bug) { // out of memory parsing a body, say: answered, not left hanging
            bug(bug);
            return;
        }
        admitted.onComplete(done -> onContext(() -> {
            if (done.failed()) {
                fail(done.cause());
            } else {
                budgeted(done.result());
            }
        }));
    }

    /** The budget stage's decision: refused, or on to the context stage with the request it serves. */
    private void budgeted(BudgetTicket ticket) {
        if (answered) {
            ticket.settle(BudgetAmount.ZERO); // the caller left meanwhile
            return;
        }
        budget = ticket;
        if (ticket.refusal() != null) {
            fail(ticket.refusal());
            return;
        }
        request = ticket.takeRequest();
        if (request.budgetFallbackFrom() != null) {
            stages.metrics().fallback(request.budgetFallbackFrom(), request.model().name(), FallbackHeader.BUDGET_EXCEEDED);
        }
        stages.context().apply(request).compose(fit -> DocumentPages.counted(fit, context)).onComplete(done -> onContext(() -> {
            if (done.failed()) {
                fail(done.cause());
            } else {
                route(done.result());
            }
        }));
    }

    private void route(ModelRequest checked) {
        if (answered) {
            return;
        }
        request = checked;
        trace.span().requestedModel(checked.model().name());
        try {
            permit = stages.subagents().admit(checked);
        } catch (GatewayException full) {
            fail(full);
            return;
        }
        if (permit != null) {
            Duration deadline = stages.subagents().deadline();
            deadlineTimer = context.owner().setTimer(Math.max(1, deadline.toMillis()), id -> deadlineExceeded(deadline));
        }
        Plan plan;
        try {
            plan = stages.router().plan(checked, caller.headers(), stages.context(), callerDeadline);
        } catch (GatewayException notServed) {
            fail(notServed);
            return;
        }
        // Once planned, the answer needs the conversation no more (a continuation keeps its own): 150 KB of it per request
        // in flight would outlive young collections, and a stream would hold it (and the caller's bytes) as long as it runs.
        reported = stages.context().reportedUsage(checked);
        request = checked.withoutConversation();
        continuation = StreamContinuation.of(checked, plan, caller.headers(), stages, trace, budget);
        chain = stages.chains().run(plan, checked.chat().stream() ? Delivery.stream(checked.chat().dialect(), continuation.on())
                : Delivery.complete(request.chat(), stages.clock()), trace, budget);
        chain.whenComplete((result, error) -> onContext(() -> answer(result, error)));
    }

    private void answer(FallbackResult<StepAnswer> result, Throwable error) {
        chain = null; // done: nothing to cancel, and its run holds every step's request for as long as a stream runs
        if (answered) {
            if (result != null && result.value().stream() != null) {
                result.value().stream().cancel(); // nobody is left to read it
            }
            return;
        }
        if (error != null) {
            fail(error);
            return;
        }
        answered = true;
        trace.span().answered(result.step(), result.passed().size());
        if (result.hedged()) {
            response.headers().set(ResponseHeaders.HEDGED, result.step()); // the hedge, not the slow step, answered
        }
        if (result.value().stream() != null) {
            budget.putHeaders(response.headers(), null);
            relay = new StreamRelay(response, caller.connection(), context, request, result.value(), continuation,
                    stages.metrics(), stages.clock());
            relay.start(trace, result.passed());
        } else {
            Usage usage = result.value().response().usage();
            trace.span().usage(usage.inputTokens(), usage.outputTokens());
            used = budget.charged(budget.used(usage, result.value().step().model()), !usage.isZero());
            reported.answered(result.value().step().model(), usage);
            budget.putHeaders(response.headers(), used);
            CompleteResponder.respond(response, caller.connection(), context, request, result, trace);
        }
    }

    private void fail(Throwable error) {
        answered = true;
        if (!response.closed() && !response.ended()) {
            budget.putHeaders(response.headers(), BudgetAmount.ZERO);
            FailureResponder.respond(response, dialect, error, request, trace, ClientRetryRules.of(caller.headers()));
        }
    }

    private void callerGone() {
        if (!answered) {
            answered = true;
            if (chain != null) {
                trace.abandon();
                chain.cancel(true);
            }
        } else if (relay != null) {
            relay.clientGone();
        }
    }

    private void deadlineExceeded(Duration deadline) {
        deadlineTimer = -1;
        cutShort(new GatewayException(GatewayError.TIMEOUT,
                "the subagent call did not finish within " + deadline.toMillis() + " ms (subagents.defaultTimeout)"));
    }

    /** The context the exchange runs on. */
    Context context() {
        return context;
    }

    /**
     * Ends the exchange now with {@code reason}, on its context: answered with it when nothing was
     * answered yet (the chain, and so the upstream call, is cancelled), or with the dialect's error
     * event when a stream is under way; a complete answer being written is left to finish.
     */
    void cutShort(GatewayException reason) {
        if (!answered) {
            fail(reason); // answered first: the cancelled chain is not
            trace.abandon();
            if (chain != null) {
                chain.cancel(true);
            }
        } else if (relay != null) {
            relay.abort(reason.error(), reason.getMessage());
        }
    }

    private void ended() {
        stages.inFlight().remove(this);
        if (deadlineTimer >= 0) {
            context.owner().cancelTimer(deadlineTimer);
        }
        try {
            budget.settle(spent());
        } catch (RuntimeException bug) {
            RequestLog.bug(requestId, bug); // said, and the model's permit, meters and log line still follow
        }
        if (permit != null) {
            permit.release();
        }
        String model = request == null ? GatewayMetrics.UNKNOWN_MODEL : request.model().name();
        boolean ended = response.ended() || (relay != null && relay.closedOnPurpose());
        int status = ended ? response.getStatusCode() : CLIENT_CLOSED;
        long duration = System.nanoTime() - startedNanos;
        stages.metrics().request(model, dialect.name(), status, duration);
        if (relay != null) {
            trace.span().usage(relay.usage().inputTokens(), relay.usage().outputTokens());
            continuation.report(reported, relay);
        }
        trace.span().ended(status);
        RequestLog.ended(requestId, model, status, trace.attempts(), response.headers(), duration);
    }

    /**
     * What the exchange spent upstream, as its budgets count it ({@link BudgetTicket#charged}): a complete answer's
     * usage; a stream's as {@link StreamContinuation#spent} tells it; nothing when no answer came. Cut-off calls on top.
     */
    private BudgetAmount spent() {
        if (relay != null) {
            return continuation.spent(budget, relay);
        }
        return used == null ? BudgetAmount.ZERO : used;
    }

    private void onContext(Runnable action) {
        OnContext.run(context, action, this::bug);
    }

    /** A fault of the gateway itself: whatever state the exchange is in, the response must still end. */
    private void bug(Throwable bug) {
        RequestLog.bug(requestId, bug);
        trace.abandon();
        if (chain != null) {
            chain.cancel(true);
        }
        if (relay != null) {
            relay.abort(GatewayError.INTERNAL_ERROR, FailureResponder.BUG_MESSAGE);
        } else if (!response.headWritten()) {
            fail(FailureResponder.ownFault(bug));
        } else if (!response.ended() && !response.closed()) {
            response.end();
        }
    }
}
