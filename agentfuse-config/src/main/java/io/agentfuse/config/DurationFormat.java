package io.agentfuse.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How durations are written in the configuration: {@code 250ms}, {@code 30s}, {@code 5m},
 * {@code 1h}, {@code 1d}, decimals allowed ({@code 1.5s}), never negative.
 *
 * <p>A bare number is read in the unit the seed uses for that key (see {@link #bareNumberUnit}):
 * milliseconds for {@code resetTimeout} (the seed writes {@code resetTimeout: 300000} for five
 * minutes), seconds for every other key ({@code timeout: 30}, {@code defaultTimeout: 120}).
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * DurationFormat.parse("5m", ChronoUnit.SECONDS);          // Optional[PT5M]
 * DurationFormat.parse("300000", ChronoUnit.MILLIS);       // Optional[PT5M]
 * DurationFormat.format(Duration.ofMillis(250));           // "250ms"
 * }</pre>
 */
public final class DurationFormat {

    /** The keys whose bare numbers are milliseconds; every other duration key takes seconds. */
    private static final String MILLISECOND_KEY = "resetTimeout";

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?");

    private DurationFormat() {
    }

    /** The unit of a bare number under {@code key}: milliseconds for {@code resetTimeout}, else seconds. */
    public static ChronoUnit bareNumberUnit(String key) {
        return MILLISECOND_KEY.equals(key) ? ChronoUnit.MILLIS : ChronoUnit.SECONDS;
    }

    /**
     * Parses {@code text}; a number without a unit is taken in {@code bareUnit}.
     *
     * @return the duration, or empty if {@code text} is not a duration (or too large)
     */
    public static Optional<Duration> parse(String text, ChronoUnit bareUnit) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        ChronoUnit unit = matcher.group(2) == null ? bareUnit : unit(matcher.group(2));
        BigDecimal nanos = new BigDecimal(matcher.group(1))
                .multiply(BigDecimal.valueOf(unit.getDuration().toNanos()));
        BigInteger whole = nanos.toBigInteger();
        if (whole.bitLength() >= Long.SIZE) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(whole.longValueExact()));
    }

    /** Writes {@code duration} in the largest unit that shows it exactly: {@code 1d}, {@code 2h}, {@code 5m}, {@code 30s}, {@code 250ms}. */
    public static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos != 0 && nanos % ChronoUnit.DAYS.getDuration().toNanos() == 0) {
            return duration.toDays() + "d";
        }
        if (nanos != 0 && nanos % ChronoUnit.HOURS.getDuration().toNanos() == 0) {
            return duration.toHours() + "h";
        }
        if (nanos != 0 && nanos % ChronoUnit.MINUTES.getDuration().toNanos() == 0) {
            return duration.toMinutes() + "m";
        }
        if (nanos % ChronoUnit.SECONDS.getDuration().toNanos() == 0) {
            return duration.toSeconds() + "s";
        }
        if (nanos % ChronoUnit.MILLIS.getDuration().toNanos() == 0) {
            return duration.toMillis() + "ms";
        }
        return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
    }

    private static ChronoUnit unit(String suffix) {
        return switch (suffix) {
            case "ms" -> ChronoUnit.MILLIS;
            case "s" -> ChronoUnit.SECONDS;
            case "m" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            case "d" -> ChronoUnit.DAYS;
            default -> throw new IllegalStateException("unit not in the pattern: " + suffix);
        };
    }
}
