package io.agentfuse.core.budget;

import java.time.Duration;
import java.util.Objects;

/**
 * Fixed windows of one length, aligned to the Unix epoch: a window of {@code 1d} runs from one UTC
 * midnight to the next, {@code 1h} from the hour to the next, {@code 30m} from :00 or :30, and any
 * length that divides a day is aligned to UTC midnight. Every instance of a fleet computes the same
 * windows from its own clock, without talking to the others (their clocks must agree, as NTP keeps them).
 *
 * <p>Pure and immutable.
 *
 * <pre>{@code
 * BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));
 * day.startOf(Instant.parse("2026-03-04T17:30:00Z").toEpochMilli()); // 2026-03-04T00:00:00Z
 * }</pre>
 *
 * @param length the length of each window: at least one second, in whole milliseconds
 */
public record BudgetWindow(Duration length) {

    /** The shortest window. */
    public static final Duration SHORTEST = Duration.ofSeconds(1);

    public BudgetWindow {
        Objects.requireNonNull(length, "length");
        if (length.compareTo(SHORTEST) < 0) {
            throw new IllegalArgumentException("a budget window must be at least 1s, but was " + length);
        }
        if (length.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("a budget window must be whole milliseconds, but was " + length);
        }
    }

    /** Windows of {@code length}. */
    public static BudgetWindow of(Duration length) {
        return new BudgetWindow(length);
    }

    /** The start (epoch milliseconds) of the window that holds {@code epochMillis}. */
    public long startOf(long epochMillis) {
        long millis = length.toMillis();
        return Math.floorDiv(epochMillis, millis) * millis;
    }

    /** The end (epoch milliseconds, exclusive) of the window that holds {@code epochMillis}. */
    public long endOf(long epochMillis) {
        return startOf(epochMillis) + length.toMillis();
    }
}
