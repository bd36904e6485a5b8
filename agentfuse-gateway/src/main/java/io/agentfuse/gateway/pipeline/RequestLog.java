package io.agentfuse.gateway.pipeline;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A model request's id and its log line (docs/design.md §9). Every answer carries {@code x-request-id}: the
 * caller's own when it sent a sane one (letters, digits, {@code . _ : -}, at most 128), else a new
 * one. A request that ends in a gateway error (5xx) or a gateway fault is logged as one line with
 * that id, model, status and the steps passed over; an answer, a 4xx and a caller who leaves (499)
 * are not errors and are not logged, and neither is a 503 that called nothing ({@code circuit_open};
 * {@code budget_unavailable}): the breaker's opening or the ledger's loss was logged once, and during
 * an outage every request would otherwise add a line at exactly the moment fast failing should cost
 * nothing. A 503 after a provider was called ({@code shutting_down} cutting a request in flight) is
 * logged as any gateway error. Keys and prompts are never logged.
 * Thread-safe.
 */
final class RequestLog {

    static final String HEADER = "x-request-id";
    private static final CharSequence ENCODED_HEADER = HttpHeaders.createOptimized(HEADER);

    private static final Logger LOG = LoggerFactory.getLogger(RequestLog.class);
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestLog() {
    }

    /** The id of {@code request}, which is also put on {@code response}. */
    static String idOf(HttpServerRequest request, HttpServerResponse response) {
        String given = request.getHeader(HEADER);
        String id = given != null && SANE.matcher(given).matches() ? given
                : Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        response.headers().set(ENCODED_HEADER, id); // not putHeader: it takes the connection's lock
        return id;
    }

    /** The status of a request turned away by open breakers, or by a budget's ledger while it is away. */
    private static final int UNAVAILABLE = 503;

    /**
     * Logs a request that ended with {@code status} after {@code attempts} calls upstream, if that is
     * a gateway error, unless a 503 that called nothing.
     */
    static void ended(String id, String model, int status, int attempts, MultiMap responseHeaders, long durationNanos) {
        if (status >= 500 && (status != UNAVAILABLE || attempts > 0)) {
            String passedOver = responseHeaders.get(FallbackHeader.NAME); // read only here: most requests are not logged
            LOG.atWarn().addKeyValue("requestId", id).addKeyValue("model", model).addKeyValue("status", status)
                    .addKeyValue("fallbacks", passedOver).addKeyValue("durationMs", durationNanos / 1_000_000)
                    .log("request {} for model {} ended {} after {} ms{}", id, model, status, durationNanos / 1_000_000,
                            passedOver == null ? "" : "; passed over: " + passedOver);
        }
    }

    /** Logs a fault of the gateway itself while it handled request {@code id}. */
    static void bug(String id, Throwable bug) {
        LOG.atError().addKeyValue("requestId", id).setCause(bug).log("request {} failed inside the gateway", id);
    }
}
