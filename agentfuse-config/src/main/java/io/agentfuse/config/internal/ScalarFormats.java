package io.agentfuse.config.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Pure parsers for the scalar formats of the configuration other than durations (see
 * {@link io.agentfuse.config.DurationFormat}): integers, booleans, fractions ({@code 50%} or
 * {@code 0.5}), sizes ({@code 10MB}, powers of 1024), URLs and lower-case enum names.
 */
final class ScalarFormats {

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?\\d+(\\.\\d+)?");
    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMG]i?B|B)?", Pattern.CASE_INSENSITIVE);

    private ScalarFormats() {
    }

    static Optional<Long> integer(String text) {
        String stripped = text.strip();
        if (!INTEGER.matcher(stripped).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(stripped));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    static Optional<Double> decimal(String text) {
        String stripped = text.strip();
        return DECIMAL.matcher(stripped).matches()
                ? Optional.of(Double.parseDouble(stripped)) : Optional.empty();
    }

    static Optional<Boolean> bool(String text) {
        return switch (text.strip()) {
            case "true" -> Optional.of(Boolean.TRUE);
            case "false" -> Optional.of(Boolean.FALSE);
            default -> Optional.empty();
        };
    }

    /** {@code 50%} is 0.5; a plain number is taken as the fraction itself, so {@code 50} is not 50 %. */
    static Optional<Double> fraction(String text) {
        Matcher percent = PERCENT.matcher(text.strip());
        if (percent.matches()) {
            return Optional.of(Double.parseDouble(percent.group(1)) / 100.0);
        }
        return decimal(text);
    }

    /** Bytes: a bare number, or a number with {@code B}, {@code KB}, {@code MB}, {@code GB} (or {@code KiB}...), base 1024. */
    static Optional<Long> size(String text) {
        Matcher matcher = SIZE.matcher(text.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String unit = matcher.group(2) == null ? "B" : matcher.group(2).toUpperCase(Locale.ROOT);
        long multiplier = switch (unit.charAt(0)) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1L;
        };
        try {
            return Optional.of(Math.multiplyExact(Long.parseLong(matcher.group(1)), multiplier));
        } catch (ArithmeticException | NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    /** A fraction as people read it: 0.5 is {@code 50%}, 0.925 is {@code 92.5%}. */
    static String percent(double fraction) {
        return BigDecimal.valueOf(fraction).multiply(BigDecimal.valueOf(100))
                .setScale(4, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "%";
    }

    /** The constants of {@code type} by their lower-case names, in declaration order. */
    static <E extends Enum<E>> Map<String, E> namesOf(Class<E> type) {
        return Stream.of(type.getEnumConstants()).collect(Collectors.toMap(
                constant -> constant.name().toLowerCase(Locale.ROOT), constant -> constant,
                (first, second) -> first, LinkedHashMap::new));
    }

    /** An absolute URL with a host and one of {@code schemes}. */
    static Optional<URI> url(String text, List<String> schemes) {
        try {
            URI uri = new URI(text.strip());
            boolean usable = uri.isAbsolute() && uri.getHost() != null
                    && schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT));
            return usable ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
