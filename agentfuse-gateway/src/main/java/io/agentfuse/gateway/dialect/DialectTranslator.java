package io.agentfuse.gateway.dialect;

import io.agentfuse.core.Clock;
import io.vertx.core.json.JsonObject;

/**
 * Carries requests and responses between the caller's dialect and a provider's, so that a
 * fallback chain may cross from Claude models to OpenAI models and back.
 *
 * <p>Within one dialect nothing is re-written: the caller's body goes upstream as received,
 * with only the model name replaced (and what {@link Dialect#sameDialectRequest} adds, e.g. usage
 * in OpenAI streams so that tokens can be counted), unknown fields included; the provider's body
 * comes back as sent, once {@linkplain Dialect#checkAnswer checked}. Across dialects, the neutral model is
 * the bridge: a request listing {@link ChatRequest#untranslatable()} features fails with
 * {@link UntranslatableException} (the fallback step is skipped with that reason), fields without
 * effect on the answer are left out ({@link ChatRequest.Crossing#dropped()}), and what only a
 * lenient model may go without ({@link ChatRequest.Crossing#lenientDrops()}) fails a strict one.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonObject upstreamBody = DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4o-mini");
 * JsonObject clientBody = DialectTranslator.clientResponse(answer, Dialects.OPENAI, request.dialect(), clock);
 * }</pre>
 */
public final class DialectTranslator {

    private DialectTranslator() {
    }

    /**
     * The body to send to a provider of dialect {@code target} for its model {@code upstreamModel}.
     *
     * @throws UntranslatableException when the request cannot be expressed in {@code target}
     */
    public static JsonObject upstreamRequest(ChatRequest request, Dialect target, String upstreamModel) {
        return upstreamRequest(request, target, upstreamModel, false);
    }

    /**
     * The body to send to a provider of dialect {@code target} for its model {@code upstreamModel}; a
     * {@code lenient} model goes without provider-run tools and fields the gateway does not know.
     *
     * @throws UntranslatableException when the request cannot be expressed in {@code target}
     */
    public static JsonObject upstreamRequest(ChatRequest request, Dialect target, String upstreamModel,
                                             boolean lenient) {
        return upstreamRequest(request, target, upstreamModel, lenient, 0);
    }

    /**
     * {@link #upstreamRequest(ChatRequest, Dialect, String, boolean)} for a model of {@code contextWindow}
     * tokens ({@link Dialect#writeRequest(ChatRequest, String, long)}); 0 when it is not known.
     *
     * @throws UntranslatableException when the request cannot be expressed in {@code target}
     */
    public static JsonObject upstreamRequest(ChatRequest request, Dialect target, String upstreamModel,
                                             boolean lenient, long contextWindow) {
        if (request.dialect() == target) {
            // Top-level fields are replaced on a shallow copy: the messages go upstream as parsed, not copied.
            return target.sameDialectRequest(ChatRequest.shallowCopy(request.received()), upstreamModel, request.stream());
        }
        if (!request.untranslatable().isEmpty()) {
            throw new UntranslatableException(request.untranslatable());
        }
        if (!lenient && !request.crossing().lenientReasons().isEmpty()) {
            throw new UntranslatableException(request.crossing().lenientReasons().stream()
                    .map(reason -> reason + " (dropped only with translate: lenient)").toList());
        }
        return contextWindow > 0 ? target.writeRequest(request, upstreamModel, contextWindow)
                : target.writeRequest(request, upstreamModel);
    }

    /**
     * The fields of {@code request} a provider of dialect {@code target} does not get: none within one
     * dialect; across, the fields without effect on the answer, and for a {@code lenient} model also
     * the provider-run tools and unknown fields. What {@code x-agentfuse-fallbacks} names.
     */
    public static java.util.List<String> dropped(ChatRequest request, Dialect target, boolean lenient) {
        if (request.dialect() == target) {
            return java.util.List.of();
        }
        ChatRequest.Crossing crossing = request.crossing();
        if (!lenient || crossing.lenientDrops().isEmpty()) {
            return crossing.dropped();
        }
        var all = new java.util.ArrayList<>(crossing.dropped());
        crossing.lenientDrops().stream().filter(name -> !all.contains(name)).forEach(all::add);
        return java.util.List.copyOf(all);
    }

    /**
     * The body to return to a caller of dialect {@code client} for a provider's complete answer
     * {@code upstreamBody} in dialect {@code upstream}.
     *
     * @throws UntranslatableException when the answer cannot be expressed in {@code client}
     */
    public static JsonObject clientResponse(JsonObject upstreamBody, Dialect upstream, Dialect client, Clock clock) {
        if (upstream == client) {
            return upstreamBody;
        }
        return client.writeResponse(AnswerNames.named(upstream.parseResponse(upstreamBody, clock), null));
    }

    /** {@link #clientResponse(JsonObject, Dialect, Dialect, Clock)} for the caller who sent {@code request}. */
    public static JsonObject clientResponse(JsonObject upstreamBody, Dialect upstream, ChatRequest request, Clock clock) {
        if (upstream == request.dialect()) {
            return upstreamBody;
        }
        return clientResponse(upstream.parseResponse(upstreamBody, clock), request);
    }

    /** A provider's answer, read into its neutral form ({@link Dialect#parseResponse}), written for the caller who sent {@code request}. */
    public static JsonObject clientResponse(ChatResponse answer, ChatRequest request) {
        return request.dialect().writeResponse(AnswerNames.named(answer, request.model()), request);
    }

    /**
     * A translator for one streamed answer whose first event was observed already ({@code null}
     * if it was not); see {@link StreamTranslator}.
     */
    public static StreamTranslator streamTranslator(ChatRequest request, Dialect upstream, Clock clock,
                                                    ObservedEvent first) {
        return StreamTranslator.between(upstream, request,
                request.streamMode() == ChatRequest.StreamMode.STREAM_WITH_USAGE, clock, first);
    }

    /**
     * A {@linkplain StreamTranslator#continuable continuable} translator for one streamed answer: it
     * re-encodes within one dialect too, so that a stream broken after its first byte can be
     * continued by another provider's in the same response (docs/streams.md, continuation).
     */
    public static StreamTranslator continuableStreamTranslator(ChatRequest request, Dialect upstream, Clock clock) {
        return StreamTranslator.continuable(upstream, request,
                request.streamMode() == ChatRequest.StreamMode.STREAM_WITH_USAGE, clock);
    }
}
