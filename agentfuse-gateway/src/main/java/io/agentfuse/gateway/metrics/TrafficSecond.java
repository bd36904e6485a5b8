package io.agentfuse.gateway.metrics;

/**
 * What the gateway answered in one second: how many model requests, how many of them were errors
 * (status 5xx or 429), and their latency; the latencies are 0 when there were no requests.
 *
 * @param epochSecond the second, in seconds since the Unix epoch
 * @param requests    requests answered in it
 * @param errors      of those, the ones answered with a status ≥ 500 or 429
 * @param p50Millis   the median latency, in milliseconds (at most 25 % above the true value)
 * @param p95Millis   the 95th percentile latency, in milliseconds (likewise)
 * @param maxMillis   the slowest request, in milliseconds
 */
public record TrafficSecond(long epochSecond, long requests, long errors,
                            double p50Millis, double p95Millis, double maxMillis) {

    /** A second without requests. */
    public static TrafficSecond empty(long epochSecond) {
        return new TrafficSecond(epochSecond, 0, 0, 0, 0, 0);
    }
}
