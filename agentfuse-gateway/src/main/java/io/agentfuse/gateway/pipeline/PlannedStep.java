package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.upstream.ProviderEndpoint;
import io.agentfuse.gateway.upstream.UpstreamRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One step of a request's fallback chain: the model, its provider, its guard, and the request in
 * the provider's dialect — or why it cannot be. The step a stream answered from is kept without its
 * request ({@link #answering()}).
 *
 * <p>A step's request may be written only when the chain first asks for it ({@link #deferred}): a
 * fallback in another dialect is rarely called, and writing a 150 KB conversation for it on every
 * request (fitted to its window, translated) cost the caller's request 130 µs of CPU and 250 KB of
 * garbage beside the 200 µs it cost altogether. Whatever writing it throws for a request it cannot
 * take ({@link UntranslatableException}, a {@link GatewayException} such as a full context window)
 * makes it a step to skip, with that reason, as if planned so.
 *
 * <p>Its request is written once and encoded once, under the step's lock (a hedge may reach it from
 * another thread); otherwise immutable.
 */
final class PlannedStep {

    private final ModelConfig model;
    private final ProviderEndpoint provider;
    private final Guard guard;
    /** Writes the step when it is first needed ({@link #runnable} or {@link #skipped}); {@code null} once written. */
    private Supplier<PlannedStep> writer;
    private UpstreamRequest upstream;
    private String skipReason;
    private List<String> dropped;

    private PlannedStep(ModelConfig model, ProviderEndpoint provider, Guard guard, Supplier<PlannedStep> writer,
                        UpstreamRequest upstream, String skipReason, List<String> dropped) {
        this.model = Objects.requireNonNull(model, "model");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.guard = Objects.requireNonNull(guard, "guard");
        if (upstream != null && skipReason != null) {
            throw new IllegalArgumentException("a step has a request or a reason to skip it, not both");
        }
        this.writer = writer;
        this.upstream = upstream;
        this.skipReason = skipReason;
        this.dropped = List.copyOf(dropped);
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
        return new PlannedStep(model, provider, guard, null, new UpstreamRequest(provider, body, headers, bytes), null,
                dropped);
    }

    static PlannedStep skipped(ModelConfig model, ProviderEndpoint provider, Guard guard, String reason) {
        return new PlannedStep(model, provider, guard, null, null, reason, List.of());
    }

    /**
     * A step whose request {@code writer} writes when the chain first asks for it: a step
     * {@link #runnable} or {@link #skipped}, of this model, provider and guard.
     */
    static PlannedStep deferred(ModelConfig model, ProviderEndpoint provider, Guard guard, Supplier<PlannedStep> writer) {
        return new PlannedStep(model, provider, guard, Objects.requireNonNull(writer, "writer"), null, null, List.of());
    }

    ModelConfig model() {
        return model;
    }

    ProviderEndpoint provider() {
        return provider;
    }

    Guard guard() {
        return guard;
    }

    /**
     * The request to send, encoded the first time it is asked for and the same bytes for every
     * attempt after ({@link UpstreamRequest#encodedOnce()}): a retried crossing with a screenshot
     * encoded its 4.8 MB body again for each attempt. {@code null} when the step must be skipped,
     * or is kept by its stream.
     */
    synchronized UpstreamRequest upstream() {
        written();
        if (upstream != null) {
            upstream = upstream.encodedOnce(); // not before: a step skipped by its open breaker never encodes
        }
        return upstream;
    }

    /** Why the step is skipped (e.g. "cannot translate: n > 1"), or {@code null}. */
    String skipReason() {
        written();
        return skipReason;
    }

    /** The caller's fields its request leaves out, crossing to the provider's dialect; empty within it. */
    List<String> dropped() {
        written();
        return dropped;
    }

    private synchronized void written() {
        Supplier<PlannedStep> writing = writer;
        if (writing == null) {
            return;
        }
        writer = null;
        PlannedStep step;
        try {
            step = writing.get();
        } catch (UntranslatableException | GatewayException unfit) {
            step = skipped(model, provider, guard, unfit.getMessage());
        }
        upstream = step.upstream;
        skipReason = step.skipReason;
        dropped = step.dropped;
    }

    /**
     * This step without its request, as a stream that answered from it keeps it: once sent the
     * request is needed no more, and a long conversation must not live as long as its answer. A step
     * never written stays unwritten: not skipped, with no request.
     */
    synchronized PlannedStep answering() {
        return upstream == null && writer == null ? this
                : new PlannedStep(model, provider, guard, null, null, null, writer == null ? dropped : List.of());
    }

    /** The step's name in the chain and in headers: the configured model name. */
    String name() {
        return model.name();
    }

    @Override
    public String toString() {
        return "PlannedStep[" + name() + (writer != null ? ", not written" : skipReason != null ? ", skipped: " + skipReason : "") + "]";
    }
}
