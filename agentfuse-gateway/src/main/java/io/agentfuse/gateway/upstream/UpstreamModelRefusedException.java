package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.AnsweredFailure;
import io.agentfuse.gateway.dialect.ProviderErrorFields;

import java.util.List;
import java.util.Map;

/**
 * A provider answered that it serves no model of the name the gateway sent
 * ({@link io.agentfuse.gateway.dialect.Dialect#refusesModel}): the model was retired, the configured
 * {@code upstreamModel} is misspelt, an Azure deployment does not exist. The name comes from the
 * gateway's configuration, so the refusal is not the caller's 4xx: {@link io.agentfuse.core.OutcomeClassifier}
 * counts this as {@code ERROR} — not retried (the same name is refused again), fallen back from, and
 * counted by the model's breaker, which opens after its {@code consecutiveErrors} so that a retired model
 * stops costing a round trip per request. When every step called was refused its model, the caller gets
 * the last refusal as a provider's 4xx ({@link #refusal()}); otherwise the chain's usual error. A name the
 * caller wrote (a built-in family's model without an entry) is the caller's: its refusal is given to the
 * chain as {@link #refusal()} itself, a 4xx that ends it ({@code pipeline.ChainExecution}).
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * UpstreamStatusException answer = ...; // 404 {"error": {"code": "model_not_found", ...}}
 * throw new UpstreamModelRefusedException(answer);
 * }</pre>
 */
public final class UpstreamModelRefusedException extends RuntimeException implements AnsweredFailure {

    private final UpstreamStatusException refusal;

    /** @param refusal the provider's answer, its body and headers cleared of the gateway's secrets */
    public UpstreamModelRefusedException(UpstreamStatusException refusal) {
        super("provider " + refusal.provider().orElse("?") + " serves no model of the name the gateway sent (HTTP "
                + refusal.providerStatus() + ": " + ProviderErrorFields.wordsOf(refusal.body().orElse(""))
                + "): check the model's upstreamModel, or take the model out of its chains", null, false, false);
        this.refusal = refusal;
    }

    /** The provider's answer, as a caller reads a provider's refusal. */
    public UpstreamStatusException refusal() {
        return refusal;
    }

    @Override
    public List<Map.Entry<String, String>> answerHeaders() {
        return refusal.answerHeaders();
    }

    @Override
    public String refusalNote() {
        return "HTTP " + refusal.providerStatus() + " model refused";
    }
}
