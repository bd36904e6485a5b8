package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ContextBudgetConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.PermissionsConfig;
import io.agentfuse.config.SubagentsConfig;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the sections that guard an agent session: {@code subagents:}, {@code context:} (the
 * budget ladder, whose thresholds must strictly increase) and {@code permissions:}.
 */
final class SessionBinder {

    private static final List<String> LADDER = List.of("warnAt", "autoCompactAt", "snipAt", "rejectAt");

    private SessionBinder() {
    }

    static SubagentsConfig subagents(MapReader section, Set<String> models) {
        SubagentsConfig defaults = ConfigDefaults.SUBAGENTS;
        var subagents = new SubagentsConfig(
                section.integer("maxConcurrent", defaults.maxConcurrent(), 1, Integer.MAX_VALUE),
                section.duration("defaultTimeout", defaults.defaultTimeout()),
                section.find("fallbacks").isPresent() ? FallbackBinder.read(section, models, Optional.empty())
                        : defaults.fallbacks());
        section.finish();
        return subagents;
    }

    /**
     * @param modelNames every name under {@code models}, which {@code compactModel} may name
     * @param models     the models read without error, whose context windows bound the output reserve
     */
    static ContextBudgetConfig context(MapReader section, Set<String> modelNames, Map<String, ModelConfig> models) {
        ContextBudgetConfig defaults = ConfigDefaults.CONTEXT;
        double[] ladder = {
                section.fraction(LADDER.get(0), defaults.warnAt()),
                section.fraction(LADDER.get(1), defaults.autoCompactAt()),
                section.fraction(LADDER.get(2), defaults.snipAt()),
                section.fraction(LADDER.get(3), defaults.rejectAt())};
        for (int step = 1; step < ladder.length; step++) {
            if (millionths(ladder[step]) <= millionths(ladder[step - 1])) {
                section.error(LADDER.get(step), "must be more than " + LADDER.get(step - 1) + " ("
                        + ScalarFormats.percent(ladder[step - 1]) + "), but was " + ScalarFormats.percent(ladder[step])
                        + "; the ladder's thresholds must strictly increase");
            }
        }
        int reserve = section.integer("reserveOutputTokens", defaults.reserveOutputTokens(), 0, Integer.MAX_VALUE);
        smallestWindow(models).filter(model -> reserve >= model.contextWindow()).ifPresent(model ->
                section.error("reserveOutputTokens", "must be less than the smallest contextWindow ("
                        + model.contextWindow() + ", model " + model.name() + "), but was " + reserve));
        var context = new ContextBudgetConfig(ladder[0], ladder[1], ladder[2], ladder[3], reserve,
                compactModel(section, modelNames),
                section.integer("keepRecentTurns", defaults.keepRecentTurns(), 0, Integer.MAX_VALUE));
        section.finish();
        return context;
    }

    /**
     * A {@code compactModel} written in the file must be configured or of a built-in provider's
     * family and no typo ({@link FamilyNames}), or {@code null} for none; left out, it is the
     * default, a family's model.
     */
    private static Optional<String> compactModel(MapReader section, Set<String> models) {
        Optional<Node> node = section.find("compactModel");
        if (node.isEmpty()) {
            return Optional.of(ConfigDefaults.COMPACT_MODEL);
        }
        if (MapReader.isNull(node.get())) {
            return Optional.empty();
        }
        String model = section.string("compactModel", "");
        return FamilyNames.accept(node.get(), model, models, section.problems()) ? Optional.of(model) : Optional.empty();
    }

    /** The ladder's resolution: the agent module compares thresholds in millionths of the window. */
    private static long millionths(double share) {
        return Math.round(share * 1_000_000);
    }

    private static Optional<ModelConfig> smallestWindow(Map<String, ModelConfig> models) {
        return models.values().stream().min(Comparator.comparingInt(ModelConfig::contextWindow));
    }

    static PermissionsConfig permissions(MapReader section) {
        PermissionsConfig defaults = ConfigDefaults.PERMISSIONS;
        int consecutive = section.integer("maxConsecutiveDenials", defaults.maxConsecutiveDenials(), 1,
                Integer.MAX_VALUE);
        int total = section.integer("maxTotalDenials", defaults.maxTotalDenials(), 1, Integer.MAX_VALUE);
        if (total < consecutive) {
            section.error(section.find("maxTotalDenials").isPresent() ? "maxTotalDenials" : "maxConsecutiveDenials",
                    "maxTotalDenials (" + total + ") must be >= maxConsecutiveDenials (" + consecutive
                            + "): a session cannot deny fewer times than a streak");
        }
        var permissions = new PermissionsConfig(consecutive, total,
                section.choice("scope", defaults.scope()),
                section.optionalDuration("halfOpenAfter", defaults.halfOpenAfter()),
                section.bool("headless", defaults.headless()));
        section.finish();
        return permissions;
    }
}
