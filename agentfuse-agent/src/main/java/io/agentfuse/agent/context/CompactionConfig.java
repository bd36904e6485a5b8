package io.agentfuse.agent.context;

import io.agentfuse.core.internal.Checks;
import java.time.Duration;

/**
 * How a {@link Compactor} runs: how long a summary may take, when to stop asking a failing
 * summariser, and how far snipping goes. Immutable; validated on construction.
 *
 * <p>Defaults: {@code summaryTimeout} 60 s; {@code maxSummaryFailures} 3 and
 * {@code failureCooldown} 5 min (after three failed summaries in a row, snip straight away for
 * five minutes; the first summary after that is a probe whose failure restarts the cooldown);
 * {@code snipBelow} {@link ContextLevel#AUTO_COMPACT} (snip until the conversation is under the
 * auto-compact threshold, so that the next turn does not compact again at once).
 *
 * <pre>{@code
 * CompactionConfig config = CompactionConfig.builder().summaryTimeout(Duration.ofSeconds(20)).build();
 * }</pre>
 *
 * @param summaryTimeout     how long to wait for a summary before giving up on it
 * @param maxSummaryFailures failed summaries in a row that start a cooldown
 * @param failureCooldown    how long to snip without summarising after that
 * @param snipBelow          the level snipping aims to get under; not NORMAL
 */
public record CompactionConfig(Duration summaryTimeout, int maxSummaryFailures, Duration failureCooldown,
                               ContextLevel snipBelow) {

    /** @throws IllegalArgumentException naming the first key with a bad value */
    public CompactionConfig {
        Checks.positive("summaryTimeout", summaryTimeout);
        Checks.atLeast("maxSummaryFailures", maxSummaryFailures, 1);
        Checks.positive("failureCooldown", failureCooldown);
        requireSnipTarget(snipBelow);
    }

    /** 60 s summaries, cooldown of 5 min after 3 failures, snip below AUTO_COMPACT. */
    public static CompactionConfig defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    private static ContextLevel requireSnipTarget(ContextLevel level) {
        Checks.notNull("snipBelow", level);
        if (level == ContextLevel.NORMAL) {
            throw new IllegalArgumentException("snipBelow must be WARNING or a fuller level, but was NORMAL");
        }
        return level;
    }

    /** Builds a {@link CompactionConfig}; each setter rejects a bad value at once. Not thread-safe. */
    public static final class Builder {
        private Duration summaryTimeout = Duration.ofSeconds(60);
        private int maxSummaryFailures = 3;
        private Duration failureCooldown = Duration.ofMinutes(5);
        private ContextLevel snipBelow = ContextLevel.AUTO_COMPACT;

        private Builder() {
        }

        /** How long to wait for a summary; default 60 s. */
        public Builder summaryTimeout(Duration timeout) {
            this.summaryTimeout = Checks.positive("summaryTimeout", timeout);
            return this;
        }

        /** Failed summaries in a row that start a cooldown; default 3. */
        public Builder maxSummaryFailures(int failures) {
            this.maxSummaryFailures = Checks.atLeast("maxSummaryFailures", failures, 1);
            return this;
        }

        /** How long to snip without summarising after too many failures; default 5 min. */
        public Builder failureCooldown(Duration cooldown) {
            this.failureCooldown = Checks.positive("failureCooldown", cooldown);
            return this;
        }

        /** The level snipping aims to get under; default AUTO_COMPACT. */
        public Builder snipBelow(ContextLevel level) {
            this.snipBelow = requireSnipTarget(level);
            return this;
        }

        /** The config. */
        public CompactionConfig build() {
            return new CompactionConfig(summaryTimeout, maxSummaryFailures, failureCooldown, snipBelow);
        }
    }
}
