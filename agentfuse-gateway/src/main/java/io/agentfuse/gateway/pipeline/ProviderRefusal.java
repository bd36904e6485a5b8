package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ProviderErrorFields;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.json.JsonObject;

/**
 * A provider's refusal of the caller's request (a 4xx passed on, neither retried nor fallen back
 * from) as the caller reads it. It comes as it was sent when the provider answers errors as the
 * caller's dialect does ({@link Dialect#errorFamily(String)}); otherwise it is re-written in the caller's
 * dialect ({@link Dialect#refusalBody}): the status kept, the type the caller's dialect gives it, the
 * provider's own message with the provider named — so that an Anthropic SDK behind a Gemini fallback
 * reads an Anthropic error, as LiteLLM answers every provider's error in one shape.
 *
 * <p>Stateless and thread-safe.
 */
final class ProviderRefusal {

    private ProviderRefusal() {
    }

    /** Whether {@code caller}'s clients read {@code refusal} as it came. */
    static boolean readAsItCame(Dialect caller, UpstreamStatusException refusal) {
        return refusal.dialect().map(provider -> provider.errorFamily(refusal.body().orElse(""))
                .equals(caller.errorFamily())).orElse(true);
    }

    /** {@code refusal} in {@code caller}'s words. */
    static JsonObject rewritten(Dialect caller, UpstreamStatusException refusal) {
        String provider = refusal.provider().orElse("the provider");
        return caller.refusalBody(refusal.status(), "provider " + provider + " refused the request: "
                + ProviderErrorFields.wordsOf(refusal.body().orElse("")));
    }
}
