package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.metrics.GatewayMetrics;

/**
 * What the end of a relayed stream tells its breaker permit and the GenAI meters, once, as one
 * model call with its whole duration ({@link StreamRelay}'s "Breaker accounting"): a complete stream
 * with its usage, a stream that failed inside as its failure's outcome, one that broke off as the
 * guard's classifier reads it. Stateless; called on the request's context.
 */
final class StreamAccounting {

    private final GatewayMetrics metrics;

    StreamAccounting(GatewayMetrics metrics) {
        this.metrics = metrics;
    }

    /** {@code answer}'s stream ended complete, having used {@code usage} (over the limit: {@code TOKEN_OVERUSE}). */
    void completed(StepAnswer answer, Usage usage) {
        answer.permit().finished(usage.total());
        meter(answer, usage, null);
    }

    /** {@code answer}'s stream failed inside with {@code failure}: a provider's error event, a malformed event, a cut. */
    void failed(StepAnswer answer, StreamEvent.Error failure) {
        Outcome outcome = switch (failure.cause()) {
            case PROVIDER -> answer.step().provider().dialect().streamErrorOutcome(failure.type());
            case MALFORMED -> Outcome.ERROR;
            case CUT -> Outcome.CONNECTION_ERROR;
        };
        answer.permit().failed(outcome);
        interrupted(answer, outcome);
    }

    /** {@code answer}'s stream broke off with {@code error}: its outcome, as the guard's classifier reads it. */
    Outcome broke(StepAnswer answer, Throwable error) {
        Outcome outcome = answer.permit().broke(error);
        interrupted(answer, outcome);
        return outcome;
    }

    private void interrupted(StepAnswer answer, Outcome outcome) {
        metrics.streamInterrupted(answer.step().name());
        meter(answer, null, outcome.name());
    }

    private void meter(StepAnswer answer, Usage usage, String errorType) {
        PlannedStep step = answer.step();
        metrics.modelCall(step.provider().name(), step.model().upstreamModel(), System.nanoTime() - answer.startedNanos(),
                usage, errorType);
    }
}
