package io.agentfuse.langchain4j;

import io.agentfuse.core.Guard;
import io.agentfuse.core.OutcomeClassifier;

import java.util.Objects;

/** Build-time checks on the guards handed to this module's decorators. */
final class GuardChecks {

    private GuardChecks() {
    }

    /**
     * {@code guard}, if it judges failures with more than the core's defaults. The default
     * classifier does not know LangChain4j's exceptions (a 429 would be an ERROR, never retried),
     * so a guard built without {@link LangChain4jOutcomes#classifier()} is refused here, not
     * discovered in an outage.
     */
    static Guard classifiesLangChain4j(String name, Guard guard) {
        Objects.requireNonNull(guard, "guard");
        if (guard.classifier() == OutcomeClassifier.defaults()) {
            throw new IllegalArgumentException("guard of '" + name + "' uses the default classifier, which does not know"
                    + " LangChain4j's exceptions: build it with .classifier(LangChain4jOutcomes.classifier())"
                    + " or through AgentfuseLangChain4j");
        }
        return guard;
    }
}
