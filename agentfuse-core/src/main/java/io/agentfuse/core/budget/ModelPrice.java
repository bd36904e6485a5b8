package io.agentfuse.core.budget;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What a model costs, in USD per million tokens read and written (the unit vendors publish), and
 * the cost of a call in nano-dollars, rounded up.
 *
 * <p>A vendor bills input its prompt cache served or kept at prices of its own ({@link CachedTokens}):
 * {@code cacheRead}, {@code cacheWrite} and {@code cacheWrite1h}, each optional. A price that does
 * not say one charges those tokens at the next one it says — an hour's write at {@code cacheWrite},
 * then at {@code input}; a read or a write at {@code input} — which is what every input token cost
 * before prices told cached input apart: a read is never counted below what it costs.
 *
 * <p>Immutable. {@code new ModelPrice(new BigDecimal("3"), new BigDecimal("15")).costNanos(1000, 100) == 4_500_000}
 * (0.003 + 0.0015 USD).
 *
 * @param input        USD per million input tokens, {@code >= 0}
 * @param output       USD per million output tokens, {@code >= 0}
 * @param cacheRead    USD per million input tokens read from the cache, {@code >= 0}; {@code null}: not told
 * @param cacheWrite   USD per million input tokens written to the cache for the vendor's default time,
 *                     {@code >= 0}; {@code null}: not told
 * @param cacheWrite1h USD per million input tokens written to the cache for an hour, {@code >= 0};
 *                     {@code null}: not told
 */
public record ModelPrice(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite,
                         BigDecimal cacheWrite1h) {

    /** Nano-dollars per token at a price of one USD per million tokens. */
    private static final BigDecimal NANOS_PER_TOKEN_PER_USD = BigDecimal.valueOf(1_000);

    public ModelPrice {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        if (input.signum() < 0 || output.signum() < 0) {
            throw new IllegalArgumentException("prices must be >= 0, but were input " + input.toPlainString()
                    + " and output " + output.toPlainString());
        }
        requireNotNegative("cacheRead", cacheRead);
        requireNotNegative("cacheWrite", cacheWrite);
        requireNotNegative("cacheWrite1h", cacheWrite1h);
    }

    /** A price that tells nothing of cached input: every input token at {@code input}. */
    public ModelPrice(BigDecimal input, BigDecimal output) {
        this(input, output, null, null, null);
    }

    /** A price from USD per million tokens written as text, e.g. {@code of("0.15", "0.60")}. */
    public static ModelPrice of(String input, String output) {
        return new ModelPrice(new BigDecimal(input), new BigDecimal(output));
    }

    /**
     * This price with cached input at {@code cacheRead}, {@code cacheWrite} and {@code cacheWrite1h}
     * USD per million tokens ({@code null}: not told).
     */
    public ModelPrice withCache(BigDecimal cacheRead, BigDecimal cacheWrite, BigDecimal cacheWrite1h) {
        return new ModelPrice(input, output, cacheRead, cacheWrite, cacheWrite1h);
    }

    /** The cost of {@code inputTokens} read and {@code outputTokens} written, in nano-dollars, rounded up. */
    public long costNanos(long inputTokens, long outputTokens) {
        return costNanos(inputTokens, CachedTokens.NONE, outputTokens);
    }

    /**
     * The cost of {@code inputTokens} read, of which {@code cached} came from or went to the cache,
     * and {@code outputTokens} written, in nano-dollars, rounded up: the input the cache did not serve
     * at {@code input}, each kind of cached input at its price, the output at {@code output}. Cached
     * tokens that do not fit in the input ({@link CachedTokens#within}) are all charged at {@code input}.
     */
    public long costNanos(long inputTokens, CachedTokens cached, long outputTokens) {
        CachedTokens counted = cached.within(inputTokens);
        BigDecimal write = cacheWrite == null ? input : cacheWrite;
        BigDecimal hourWrite = cacheWrite1h == null ? write : cacheWrite1h;
        BigDecimal usd = input.multiply(BigDecimal.valueOf(inputTokens - counted.total()))
                .add((cacheRead == null ? input : cacheRead).multiply(BigDecimal.valueOf(counted.reads())))
                .add(write.multiply(BigDecimal.valueOf(counted.writes())))
                .add(hourWrite.multiply(BigDecimal.valueOf(counted.hourWrites())))
                .add(output.multiply(BigDecimal.valueOf(outputTokens)));
        BigDecimal whole = usd.multiply(NANOS_PER_TOKEN_PER_USD).setScale(0, RoundingMode.CEILING);
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

    private static void requireNotNegative(String name, BigDecimal price) {
        if (price != null && price.signum() < 0) {
            throw new IllegalArgumentException("prices must be >= 0, but " + name + " was " + price.toPlainString());
        }
    }
}
