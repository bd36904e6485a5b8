package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.HedgeConfig;
import io.agentfuse.config.internal.Node.ScalarNode;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a model's {@code deadline} and {@code hedge} (docs/design.md §13) and checks them against
 * each other and the model's timeout: a fixed hedge delay that is not shorter than the timeout or
 * the deadline could never start a hedge, so it is an error rather than a silent no-op.
 */
final class HedgeBinder {

    /** {@code p50} to {@code p99}: a percentile of the model's recent time to first result. */
    private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2})");
    private static final String AFTER = "a duration like 2s, or a percentile of recent latency like p95";

    private HedgeBinder() {
    }

    /** {@code models.<m>.deadline}: a positive duration (bare number: seconds), or none. */
    static Optional<Duration> deadline(MapReader model) {
        return model.optionalDuration("deadline", Optional.empty());
    }

    /** {@code models.<m>.hedge}: a map, or none ({@code null}, {@code off}, {@code false} or left out). */
    static Optional<HedgeConfig> hedge(MapReader model, Duration timeout, Optional<Duration> deadline) {
        Optional<Node> written = model.find("hedge");
        if (written.isEmpty() || MapReader.isOff(written.get())) {
            return Optional.empty();
        }
        MapReader section = model.section("hedge");
        HedgeConfig defaults = ConfigDefaults.HEDGE;
        double maxShare = section.fraction("maxShare", defaults.maxShare());
        Optional<Node> after = section.find("after");
        HedgeConfig hedge;
        if (after.isEmpty()) {
            hedge = new HedgeConfig(defaults.after(), defaults.quantile(), maxShare);
        } else if (!(after.get() instanceof ScalarNode scalar) || scalar.isNull()) {
            section.error("after", Checks.mustBe(AFTER, after.get().describe()));
            hedge = new HedgeConfig(defaults.after(), defaults.quantile(), maxShare);
        } else {
            hedge = after(section, scalar, maxShare).orElse(null);
        }
        section.finish();
        if (hedge == null || hedge.after().isEmpty()) {
            return Optional.ofNullable(hedge);
        }
        Duration delay = hedge.after().get();
        if (delay.compareTo(timeout) >= 0) {
            section.error("after", "must be less than the model's timeout (" + DurationFormat.format(timeout)
                    + ") to ever start a hedge, but was " + DurationFormat.format(delay));
        } else if (deadline.isPresent() && delay.compareTo(deadline.get()) >= 0) {
            section.error("after", "must be less than the model's deadline (" + DurationFormat.format(deadline.get())
                    + ") to ever start a hedge, but was " + DurationFormat.format(delay));
        }
        return Optional.of(hedge);
    }

    private static Optional<HedgeConfig> after(MapReader section, ScalarNode written, double maxShare) {
        String text = written.text().strip();
        Matcher percentile = PERCENTILE.matcher(text);
        if (percentile.matches()) {
            int percent = Integer.parseInt(percentile.group(1));
            if (percent < 50) {
                section.error("after", Checks.mustBe("a percentile from p50 to p99", written.describe()));
                return Optional.empty();
            }
            return Optional.of(HedgeConfig.afterQuantile(percent / 100.0, maxShare));
        }
        Optional<Duration> delay = DurationFormat.parse(text, ChronoUnit.SECONDS);
        String problem = delay.isEmpty() ? Checks.mustBe(AFTER, written.describe())
                : ValueRules.notTooLong(delay.get(), written.describe());
        if (problem != null) {
            section.error("after", problem);
            return Optional.empty();
        }
        return Optional.of(HedgeConfig.after(delay.get(), maxShare));
    }
}
