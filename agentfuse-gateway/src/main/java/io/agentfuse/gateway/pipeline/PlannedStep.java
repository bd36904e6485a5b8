package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.gateway.upstream.ProviderEndpoint;
import io.agentfuse.gateway.upstream.UpstreamRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a request's fallback chain, ready to run: the model, its provider, its guard, and
 * the request already written in the provider's dialect — or why it cannot be. The step a stream
 * answered from is kept without its request ({@link #answering()}).
 *
 * <p>Immutable.
 *
 * @param model      the configured model of this step
 * @param provider   where its calls go
 * @param guard      its guard: breaker {@code model:<model>}, retry, bulkhead, timeout
 * @param upstream   the request to send; {@code null} when the step must be skipped, or is kept by its stream
 * @param skipReason why the step is skipped (e.g. "cannot translate: n > 1"), or {@code null}
 * @param dropped    the caller's fields its request leaves out, crossing to the provider's dialect; empty within it
 */
record PlannedStep(ModelConfig model, ProviderEndpoint provider, Guard guard, UpstreamRequest upstream,
                   String skipReason, List<String> dropped) {

    PlannedStep {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(guard, "guard");
        if (upstream != null && skipReason != null) {
            throw new IllegalArgumentException("a step has a request or a reason to skip it, not both");
        }
        dropped = List.copyOf(dropped);
    }

    static PlannedStep runnable(ModelConfig model, ProviderEndpoint provider, Guard guard, JsonObject body,
                                Map<String, String> headers) {
        return runnable(model, provider, guard, body, null, headers);
    }

    /**
     * A step whose body goes upstream as {@code bytes} (its encoding), or encoded from {@code body}
     * when {@code null}; {@code body} may be {@code null} when {@code bytes} is given.
     */
    static PlannedStep runnable(ModelConfig model, ProviderEndpoint provider, Guard guard, JsonObject body,
                                Buffer bytes, Map<String, String> headers) {
        return runnable(model, provider, guard, body, bytes, headers, List.of());
    }

    /** A step whose translated request leaves out the caller's fields {@code dropped}. */
    static PlannedStep runnable(ModelConfig model, ProviderEndpoint provider, Guard guard, JsonObject body,
                                Buffer bytes, Map<String, String> headers, List<String> dropped) {
        return new PlannedStep(model, provider, guard, new UpstreamRequest(provider, body, headers, bytes), null,
                dropped);
    }

    static PlannedStep skipped(ModelConfig model, ProviderEndpoint provider, Guard guard, String reason) {
        return new PlannedStep(model, provider, guard, null, reason, List.of());
    }

    /**
     * This step without its request, as a stream that answered from it keeps it: once sent the
     * request is needed no more, and a long conversation must not live as long as its answer.
     */
    PlannedStep answering() {
        return upstream == null ? this : new PlannedStep(model, provider, guard, null, null, dropped);
    }

    /** The step's name in the chain and in headers: the configured model name. */
    String name() {
        return model.name();
    }
}
