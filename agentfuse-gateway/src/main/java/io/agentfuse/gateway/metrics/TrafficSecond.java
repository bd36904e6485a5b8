package io.agentfuse.gateway.metrics;

/**
 * What the gateway answered in one second: how many model requests, how many of them were errors
 * (status 5xx or 429), and their latency (0 when there were no requests); and, behind them, how many
 * calls to providers failed and how many fallback steps were passed over — a provider failing every
 * call behind a working fallback shows there while the callers' errors stay at zero.
 *
 * @param epochSecond the second, in seconds since the Unix epoch
 * @param requests    requests answered in it
 * @param errors      of those, the ones answered with a status ≥ 500 or 429
 * @param p50Millis   the median latency, in milliseconds (at most 25 % above the true value)
 * @param p95Millis   the 95th percentile latency, in milliseconds (likewise)
 * @param maxMillis   the slowest request, in milliseconds
 * @param upstreamFailures calls to providers that failed (any outcome but success and the caller's own 4xx),
 *                    and streams that broke after their first byte
 * @param fallbacks   fallback steps passed over (failed or skipped), the chain going on to the next
 */
public record TrafficSecond(long epochSecond, long requests, long errors,
                            double p50Millis, double p95Millis, double maxMillis,
                            long upstreamFailures, long fallbacks) {

    /** A second without requests. */
    public static TrafficSecond empty(long epochSecond) {
        return new TrafficSecond(epochSecond, 0, 0, 0, 0, 0, 0, 0);
    }
}
