package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.upstream.UpstreamModelRefusedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells the operator, once per model, that its provider serves no model of the configured name (a
 * retired model, a misspelt {@code upstreamModel}): its requests are answered by the fallbacks, so
 * nothing else would say that the configuration needs changing until the fallbacks fail too. One
 * WARN line per model name for the life of the process (at most {@value #MOST_REMEMBERED} names, then
 * no more lines), with the provider's words. Thread-safe.
 */
final class RefusedModels {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedModels.class);
    static final int MOST_REMEMBERED = 1_000;

    private final Set<String> told = ConcurrentHashMap.newKeySet();

    /** Logs {@code passed}'s refusal of its model, if it is one and its model's first. */
    void note(StepFailure passed) {
        if (passed.skipped() || !(OutcomeClassifier.unwrap(passed.cause()) instanceof UpstreamModelRefusedException refused)) {
            return;
        }
        if (told.size() < MOST_REMEMBERED && told.add(passed.step())) {
            LOG.atWarn().addKeyValue("model", passed.step()).log("model {}: {}; its requests go to its fallbacks"
                    + " (said once per model)", passed.step(), refused.getMessage());
        }
    }
}
