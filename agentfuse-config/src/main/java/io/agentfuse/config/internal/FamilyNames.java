package io.agentfuse.config.internal;

import io.agentfuse.config.ModelFamilies;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rule of docs/design.md §6 for a model the configuration names without configuring it (in a fallback list,
 * as {@code compactModel} or as a budget's {@code onExhausted.fallback}): a name of no built-in family is an error listing the configured
 * models; a family name of the built-in table ({@link ModelFamilies#isKnown}) is served as that
 * model; a family name the table does not know that is one or two edits away from a configured
 * model or a model of the table is an error with "did you mean" ({@code claude-hauku-4} →
 * {@code claude-haiku-4}), since a typo in a fallback list must not wait for the outage it was
 * meant for; any other family name is accepted with a warning, which {@code validate} lists.
 */
final class FamilyNames {

    /** How many edits away a name is taken for a typo. */
    static final int TYPO_EDITS = 2;

    private FamilyNames() {
    }

    /**
     * Checks the reference {@code item} to model {@code name}, reporting to {@code problems} an
     * error or a warning; whether the name can be used.
     *
     * @param configured the names under {@code models:}
     */
    static boolean accept(Node item, String name, Set<String> configured, Problems problems) {
        if (configured.contains(name)) {
            return true;
        }
        Optional<String> provider = ModelFamilies.providerOf(name);
        if (provider.isEmpty()) {
            problems.add(item, ClosestMatch.unknown("model", name, configured));
            return false;
        }
        if (ModelFamilies.isKnown(name)) {
            return true;
        }
        Optional<String> meant = nearest(name, configured);
        if (meant.isPresent()) {
            problems.add(item, "unknown model \"" + name + "\"; did you mean \"" + meant.get() + "\"? (a family name"
                    + " that is not in agentfuse's table of models and is one or two edits from one that is, or from a"
                    + " configured one, is taken for a typo; configure it under models: to use it as written)");
            return false;
        }
        problems.warn(item, "model \"" + name + "\" is not configured and not in agentfuse's table of models: it goes to"
                + " the " + provider.get() + " provider as written, with a context window of "
                + ModelFamilies.contextWindowOf(name) + " tokens (its family's); configure it under models: to be sure of both");
        return true;
    }

    /** The configured or known model at most {@link #TYPO_EDITS} edits from {@code name}, the nearest first. */
    private static Optional<String> nearest(String name, Set<String> configured) {
        List<String> candidates = new ArrayList<>(configured);
        candidates.addAll(ModelFamilies.knownModels());
        return candidates.stream()
                .filter(candidate -> ClosestMatch.distance(name, candidate) <= TYPO_EDITS)
                .min(Comparator.comparingInt((String candidate) -> ClosestMatch.distance(name, candidate))
                        .thenComparing(Comparator.naturalOrder()));
    }
}
