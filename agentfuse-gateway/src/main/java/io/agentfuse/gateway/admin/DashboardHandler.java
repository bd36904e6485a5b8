package io.agentfuse.gateway.admin;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /}: a live dashboard of the breakers, one self-contained HTML page (no external
 * assets) whose script polls {@code /admin/breakers} every second and lists transitions from
 * {@code /admin/events}: each breaker's state in colour, its reason, open-until and counts.
 *
 * <p>The page is read once, at construction. Thread-safe.
 */
public final class DashboardHandler {

    private static final String PAGE = "dashboard.html";

    private final Buffer page;

    /** Loads the page from the classpath. */
    public DashboardHandler() {
        try (InputStream in = DashboardHandler.class.getResourceAsStream(PAGE)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard page " + PAGE + " is missing from the classpath");
            }
            this.page = Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard page", e);
        }
    }

    /** Serves the page. */
    public void handle(RoutingContext ctx) {
        ctx.response().putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("cache-control", "no-cache")
                .end(page);
    }
}
