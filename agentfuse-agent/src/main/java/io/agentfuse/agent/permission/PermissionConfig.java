package io.agentfuse.agent.permission;

import io.agentfuse.core.internal.Checks;
import java.time.Duration;

/**
 * When a {@link PermissionBreaker} opens and how it may close. Immutable; validated on
 * construction.
 *
 * <p>Defaults: {@code maxConsecutiveDenials} 3 (the seed: once may be a change of mind, twice a
 * pattern forming, three times a confirmed "no"), {@code maxTotalDenials} 20 per session,
 * {@code scope} {@link PermissionScope#CATEGORY}, {@code halfOpenAfter} null (only the user
 * re-enables auto mode), {@code headless} false.
 *
 * <pre>{@code
 * PermissionConfig config = PermissionConfig.builder()
 *         .scope(PermissionScope.GLOBAL)
 *         .halfOpenAfter(Duration.ofMinutes(5))
 *         .build();
 * }</pre>
 *
 * @param maxConsecutiveDenials denials in a row, within the scope, that open the breaker; >= 1
 * @param maxTotalDenials       denials in the session that open the breaker; >= maxConsecutiveDenials
 * @param scope                 which denials count towards one streak
 * @param halfOpenAfter         how long OPEN lasts before auto mode is retried on its own; null: never
 * @param headless              whether there is no user to ask, so that OPEN aborts the session
 */
public record PermissionConfig(int maxConsecutiveDenials, int maxTotalDenials, PermissionScope scope,
                               Duration halfOpenAfter, boolean headless) {

    /** @throws IllegalArgumentException naming the first key with a bad value */
    public PermissionConfig {
        Checks.atLeast("maxConsecutiveDenials", maxConsecutiveDenials, 1);
        Checks.atLeast("maxTotalDenials", maxTotalDenials, 1);
        if (maxTotalDenials < maxConsecutiveDenials) {
            throw new IllegalArgumentException("maxTotalDenials must be >= maxConsecutiveDenials ("
                    + maxConsecutiveDenials + "), but was " + maxTotalDenials);
        }
        Checks.notNull("scope", scope);
        Checks.positiveOrAbsent("halfOpenAfter", halfOpenAfter);
    }

    /** 3 in a row, 20 in all, per category, user-led reset only, interactive. */
    public static PermissionConfig defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link PermissionConfig}; each setter rejects a bad value at once. Not thread-safe. */
    public static final class Builder {
        private int maxConsecutiveDenials = 3;
        private int maxTotalDenials = 20;
        private PermissionScope scope = PermissionScope.CATEGORY;
        private Duration halfOpenAfter;
        private boolean headless;

        private Builder() {
        }

        /** Denials in a row that open the breaker; default 3. */
        public Builder maxConsecutiveDenials(int denials) {
            this.maxConsecutiveDenials = Checks.atLeast("maxConsecutiveDenials", denials, 1);
            return this;
        }

        /** Denials in the session that open the breaker; default 20. */
        public Builder maxTotalDenials(int denials) {
            this.maxTotalDenials = Checks.atLeast("maxTotalDenials", denials, 1);
            return this;
        }

        /** Which denials count together; default CATEGORY. */
        public Builder scope(PermissionScope scope) {
            this.scope = Checks.notNull("scope", scope);
            return this;
        }

        /** How long OPEN lasts before auto mode is retried on its own; default null (never). */
        public Builder halfOpenAfter(Duration delay) {
            this.halfOpenAfter = Checks.positiveOrAbsent("halfOpenAfter", delay);
            return this;
        }

        /** Whether there is no user to ask; default false. */
        public Builder headless(boolean headless) {
            this.headless = headless;
            return this;
        }

        /**
         * The config.
         *
         * @throws IllegalArgumentException if {@code maxTotalDenials < maxConsecutiveDenials}
         */
        public PermissionConfig build() {
            return new PermissionConfig(maxConsecutiveDenials, maxTotalDenials, scope, halfOpenAfter, headless);
        }
    }
}
