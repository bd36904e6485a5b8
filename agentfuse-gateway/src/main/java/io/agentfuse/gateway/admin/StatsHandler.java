package io.agentfuse.gateway.admin;

import io.agentfuse.gateway.metrics.RecentTraffic;
import io.agentfuse.gateway.metrics.TrafficSecond;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.Objects;

/**
 * {@code GET /admin/stats}: the model requests answered over the last five minutes, one entry per
 * complete second, oldest first — what the dashboard's charts draw:
 * <pre>{@code
 * {"horizonSeconds": 300,
 *  "seconds": [{"at": "2026-01-01T00:00:00Z", "requests": 12, "errors": 1,
 *               "p50Ms": 3.072, "p95Ms": 12.288, "maxMs": 13.5, "upstreamFailures": 3, "fallbacks": 3}, ...]}
 * }</pre>
 * {@code errors} counts answers with status ≥ 500 or 429; the latencies are {@code null} in a
 * second without requests; {@code upstreamFailures} counts failed calls to providers (streams broken
 * mid-way too) and {@code fallbacks} the fallback steps passed over, answered or not. Reading needs no token. Thread-safe.
 */
public final class StatsHandler {

    private final RecentTraffic traffic;

    /** Serves the seconds counted by {@code traffic}. */
    public StatsHandler(RecentTraffic traffic) {
        this.traffic = Objects.requireNonNull(traffic, "traffic");
    }

    /** Adds the route to {@code router}. */
    public void mount(Router router) {
        router.get("/admin/stats").handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        JsonArray seconds = new JsonArray();
        for (TrafficSecond second : traffic.lastSeconds()) {
            seconds.add(json(second));
        }
        ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store")
                .end(new JsonObject().put("horizonSeconds", RecentTraffic.HORIZON_SECONDS)
                        .put("seconds", seconds).encode());
    }

    private static JsonObject json(TrafficSecond second) {
        boolean any = second.requests() > 0;
        return new JsonObject()
                .put("at", Instant.ofEpochSecond(second.epochSecond()).toString())
                .put("requests", second.requests())
                .put("errors", second.errors())
                .put("p50Ms", any ? second.p50Millis() : null)
                .put("p95Ms", any ? second.p95Millis() : null)
                .put("maxMs", any ? second.maxMillis() : null)
                .put("upstreamFailures", second.upstreamFailures())
                .put("fallbacks", second.fallbacks());
    }
}
