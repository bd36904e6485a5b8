package io.agentfuse.gateway.admin;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /}: the live dashboard, one self-contained HTML page (no external assets, no
 * libraries) whose script, every second, polls {@code /admin/stats} and draws request rate, error
 * rate, latency, and the failed provider calls and fallbacks behind the answers, over the last five
 * minutes as SVG charts, and polls {@code /admin/breakers} for each breaker's state in colour, reason,
 * open-until and counts, with buttons that open, close, reset or disable it
 * ({@code POST /admin/breakers/{name}/{action}} with the admin token typed into the page, kept in the
 * tab's session storage); it lists the recent transitions ({@code /admin/transitions}) on load and
 * the new ones live from {@code /admin/events}.
 *
 * <p>The page is read once, at construction, and served with {@link BrowserProtection}'s headers:
 * a policy that lets exactly its own inline script and style run, and no framing. Thread-safe.
 */
public final class DashboardHandler {

    private static final String PAGE = "dashboard.html";

    private final Buffer page;
    private final String policy;

    /** Loads the page from the classpath. */
    public DashboardHandler() {
        try (InputStream in = DashboardHandler.class.getResourceAsStream(PAGE)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard page " + PAGE + " is missing from the classpath");
            }
            byte[] html = in.readAllBytes();
            this.page = Buffer.buffer(html);
            this.policy = BrowserProtection.pagePolicy(new String(html, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard page", e);
        }
    }

    /** Serves the page. */
    public void handle(RoutingContext ctx) {
        BrowserProtection.page(ctx.response(), policy);
        ctx.response().putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("cache-control", "no-cache")
                .end(page);
    }
}
