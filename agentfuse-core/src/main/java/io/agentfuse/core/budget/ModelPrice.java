package io.agentfuse.core.budget;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What a model costs, in USD per million tokens read and written (the unit vendors publish), and
 * the cost of a call in nano-dollars, rounded up.
 *
 * <p>Immutable. {@code new ModelPrice(new BigDecimal("3"), new BigDecimal("15")).costNanos(1000, 100) == 4_500_000}
 * (0.003 + 0.0015 USD).
 *
 * @param input  USD per million input tokens, {@code >= 0}
 * @param output USD per million output tokens, {@code >= 0}
 */
public record ModelPrice(BigDecimal input, BigDecimal output) {

    /** Nano-dollars per token at a price of one USD per million tokens. */
    private static final BigDecimal NANOS_PER_TOKEN_PER_USD = BigDecimal.valueOf(1_000);

    public ModelPrice {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        if (input.signum() < 0 || output.signum() < 0) {
            throw new IllegalArgumentException("prices must be >= 0, but were input " + input.toPlainString()
                    + " and output " + output.toPlainString());
        }
    }

    /** A price from USD per million tokens written as text, e.g. {@code of("0.15", "0.60")}. */
    public static ModelPrice of(String input, String output) {
        return new ModelPrice(new BigDecimal(input), new BigDecimal(output));
    }

    /** The cost of {@code inputTokens} read and {@code outputTokens} written, in nano-dollars, rounded up. */
    public long costNanos(long inputTokens, long outputTokens) {
        BigDecimal nanos = input.multiply(BigDecimal.valueOf(inputTokens))
                .add(output.multiply(BigDecimal.valueOf(outputTokens)))
                .multiply(NANOS_PER_TOKEN_PER_USD);
        BigDecimal whole = nanos.setScale(0, RoundingMode.CEILING);
        return whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : whole.longValueExact();
    }

    /** {@code usd} in nano-dollars, rounded up: how a cost limit is counted. */
    public static long nanosOf(BigDecimal usd) {
        return usd.movePointRight(9).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** {@code nanos} nano-dollars in USD, as plain text without trailing zeros ({@code 12.5}). */
    public static String usdOf(long nanos) {
        BigDecimal usd = BigDecimal.valueOf(nanos, 9).stripTrailingZeros();
        return usd.scale() < 0 ? usd.setScale(0).toPlainString() : usd.toPlainString();
    }
}
