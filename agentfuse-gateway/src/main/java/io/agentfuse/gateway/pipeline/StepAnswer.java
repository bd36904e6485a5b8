package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.HeldPermit;
import io.agentfuse.core.LongCall;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ObservedEvent;
import io.agentfuse.gateway.upstream.UpstreamResponse;
import io.agentfuse.gateway.upstream.UpstreamStream;
import io.vertx.core.buffer.Buffer;

/**
 * What one step of the chain answered: a complete response, or a stream that has produced its
 * first event (and may still fail later). Also the value the guards' token counter reads.
 *
 * @param step         the step that answered; a stream's without its request ({@link PlannedStep#answering()})
 * @param response     the complete answer, or {@code null} for a stream
 * @param callerBody   the complete answer's body as its caller reads it ({@link Delivery#body}); {@code null}
 *                     for a stream
 * @param read         the complete answer in its neutral form, when its {@link Delivery} reads it (the
 *                     gateway's own {@link ModelClient}); else {@code null}
 * @param stream       the stream, or {@code null} for a complete answer
 * @param firstEvent   a stream's first event as the check of it observed it; {@code null} for a complete answer
 * @param startedNanos when the answering attempt started ({@link System#nanoTime()}), for the model-call meters
 * @param permit       the breaker permit a stream holds until it ends; {@code null} for a complete answer
 */
record StepAnswer(PlannedStep step, UpstreamResponse response, Buffer callerBody, ChatResponse read,
                  UpstreamStream stream, ObservedEvent firstEvent, long startedNanos, HeldPermit permit)
        implements LongCall {

    /** A complete answer, whose caller reads {@code callerBody}. */
    StepAnswer(PlannedStep step, UpstreamResponse response, Buffer callerBody, long startedNanos) {
        this(step, response, callerBody, null, startedNanos);
    }

    /** A complete answer, whose caller reads {@code callerBody}, read as {@code read}. */
    StepAnswer(PlannedStep step, UpstreamResponse response, Buffer callerBody, ChatResponse read, long startedNanos) {
        this(step, response, callerBody, read, null, null, startedNanos, null);
    }

    /** A stream whose first event came, and was observed as {@code firstEvent}. */
    StepAnswer(PlannedStep step, UpstreamStream stream, ObservedEvent firstEvent, long startedNanos) {
        this(step.answering(), null, null, null, stream, firstEvent, startedNanos, new HeldPermit(step.guard()));
    }

    /** A stream keeps its permit until it ends (see {@link StreamRelay}); a complete answer is recorded by the guard. */
    @Override
    public HeldPermit heldPermit() {
        return permit;
    }

    /**
     * The tokens a guard records for a result: the usage of a complete answer; 0 for a stream,
     * whose usage is only known at its end (see {@link StreamRelay}).
     */
    static long tokensOf(Object result) {
        return result instanceof StepAnswer answer && answer.response != null ? answer.response.usage().total() : 0L;
    }
}
