package io.agentfuse.gateway.admin;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.event.RejectionCounter;
import io.agentfuse.gateway.http.GatewayErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The admin API over the breakers:
 * <ul>
 *   <li>{@code GET /admin/breakers} → {@code {"breakers": [...]}} (see {@link BreakerJson});</li>
 *   <li>{@code GET /admin/breakers/{name}} → one breaker, or 404 {@code not_found};</li>
 *   <li>{@code POST /admin/breakers/{name}/{open|close|reset|disable}} → the operation, then the
 *       breaker; needs the admin token (see {@link AdminAuthorization}). An optional
 *       {@code ?reason=...} is recorded as the operator's reason.</li>
 * </ul>
 * Names contain {@code :} and, for tools, {@code /} ({@code tool:search/web_search}); both may be
 * sent as they are or percent-encoded. Thread-safe.
 *
 * <pre>{@code
 * new BreakerAdminHandler(runtime.registry(), () -> runtime.config().server().adminToken()).mount(router);
 * }</pre>
 */
public final class BreakerAdminHandler {

    private static final String PREFIX = "/admin/breakers/";
    private static final String DEFAULT_REASON = "admin API";

    private final CircuitBreakerRegistry registry;
    private final AdminAuthorization authorization;
    private final RejectionCounter rejections = new RejectionCounter();

    /** Handles the breakers of {@code registry}; operations need {@code adminToken} (empty: read-only). */
    public BreakerAdminHandler(CircuitBreakerRegistry registry, Supplier<String> adminToken) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.authorization = new AdminAuthorization(adminToken);
        registry.addListener(rejections);
    }

    /** Adds the routes to {@code router}. */
    public void mount(Router router) {
        router.get("/admin/breakers").handler(this::list);
        router.get(PREFIX + "*").handler(this::one);
        router.post(PREFIX + "*").handler(this::operate);
    }

    private void list(RoutingContext ctx) {
        JsonArray breakers = new JsonArray();
        registry.all().forEach(breaker -> breakers.add(view(breaker)));
        json(ctx, 200, new JsonObject().put("breakers", breakers));
    }

    private void one(RoutingContext ctx) {
        String name = AdminPath.decode(AdminPath.after(ctx, PREFIX));
        find(ctx, name).ifPresent(breaker -> json(ctx, 200, view(breaker)));
    }

    private void operate(RoutingContext ctx) {
        if (!authorization.permits(ctx.request(), ctx.response())) {
            return;
        }
        String rest = AdminPath.after(ctx, PREFIX);
        int slash = rest.lastIndexOf('/');
        String action = slash < 0 ? "" : rest.substring(slash + 1);
        if (slash <= 0 || !isAction(action)) {
            GatewayErrors.respondAdmin(ctx.response(), 404, "not_found",
                    "unknown operation: use POST /admin/breakers/{name}/open, close, reset or disable");
            return;
        }
        String reason = Optional.ofNullable(ctx.request().getParam("reason")).filter(r -> !r.isBlank()).orElse(DEFAULT_REASON);
        find(ctx, AdminPath.decode(rest.substring(0, slash))).ifPresent(breaker -> {
            switch (action) {
                case "open" -> breaker.forceOpen(reason);
                case "close" -> breaker.close(reason);
                case "reset" -> {
                    breaker.reset();
                    rejections.reset(breaker.name());
                }
                default -> breaker.disable(reason);
            }
            json(ctx, 200, view(breaker));
        });
    }

    /** The breaker's snapshot, its counts completed with the calls it rejected. */
    private JsonObject view(CircuitBreaker breaker) {
        JsonObject json = BreakerJson.of(breaker.snapshot());
        json.getJsonObject("counts").put("rejected", rejections.rejected(breaker.name()));
        return json;
    }

    private static boolean isAction(String action) {
        return switch (action) {
            case "open", "close", "reset", "disable" -> true;
            default -> false;
        };
    }

    private Optional<CircuitBreaker> find(RoutingContext ctx, String name) {
        Optional<CircuitBreaker> breaker = registry.find(name);
        if (breaker.isEmpty()) {
            GatewayErrors.respondAdmin(ctx.response(), 404, "not_found", "no breaker named '" + name + "'");
        }
        return breaker;
    }

    private static void json(RoutingContext ctx, int status, JsonObject body) {
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
    }
}
