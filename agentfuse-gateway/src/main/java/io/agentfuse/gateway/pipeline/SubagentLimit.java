package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;

import java.time.Duration;

/**
 * The {@code subagents:} limits on requests that carry {@code x-agentfuse-subagent}: at most
 * {@code maxConcurrent} of them in flight (the runtime's subagent bulkhead), each answered within
 * {@code defaultTimeout} overall (retries and fallbacks included, and the whole stream).
 *
 * <p>A subagent request beyond the limit is refused at once with 429 {@code subagent_limit} and
 * {@code Retry-After: 1}, rather than queued: the standard OpenAI and Anthropic clients retry a 429
 * on their own, and the gateway holds no request it cannot serve. Thread-safe.
 */
final class SubagentLimit {

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final AgentfuseRuntime runtime;

    SubagentLimit(AgentfuseRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * A place for {@code request}, or {@code null} when it is not a subagent's.
     *
     * @throws GatewayException {@link GatewayError#SUBAGENT_LIMIT} when every place is taken
     */
    Permit admit(ModelRequest request) {
        if (!request.fromSubagent()) {
            return null;
        }
        Bulkhead bulkhead = runtime.subagentBulkhead();
        if (!bulkhead.tryAcquire()) {
            throw new GatewayException(GatewayError.SUBAGENT_LIMIT, bulkhead.maxConcurrent()
                    + " subagent calls are in flight already (subagents.maxConcurrent); retry later", RETRY_AFTER);
        }
        return new Permit(bulkhead);
    }

    /** How long a subagent call may take in all ({@code subagents.defaultTimeout}). */
    Duration deadline() {
        return runtime.config().subagents().defaultTimeout();
    }

    /** One subagent call's place; released exactly once, however often {@link #release()} is called. */
    static final class Permit {
        private final Bulkhead bulkhead;
        private boolean released;

        private Permit(Bulkhead bulkhead) {
            this.bulkhead = bulkhead;
        }

        synchronized void release() {
            if (!released) {
                released = true;
                bulkhead.release();
            }
        }
    }
}
