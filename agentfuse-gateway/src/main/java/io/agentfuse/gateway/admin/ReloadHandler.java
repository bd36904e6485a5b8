package io.agentfuse.gateway.admin;

import io.agentfuse.config.ConfigError;
import io.agentfuse.config.ConfigException;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.reload.ConfigReloader;
import io.agentfuse.gateway.reload.ReloadSupersededException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code POST /admin/reload} (docs/design.md §7): re-reads the configuration file; needs the admin token
 * (see {@link AdminAuthorization}).
 * <ul>
 *   <li>200 {@code {"reloaded": true, "source", "trigger", "breakers": {added, kept, replaced, removed},
 *       "restartRequired": ["server.port", ...], "removed": ["clients.team-a", "budgets.per-tenant", ...]}}
 *       (what it removed is also logged at WARN);</li>
 *   <li>400 {@code invalid_config}: the file has errors, listed in the message and in
 *       {@code error.errors} ({@code key}, {@code line}, {@code column}, {@code message}), or it makes a
 *       change a running gateway refuses (another {@code state.store}, no {@code server.adminToken} where
 *       one is in force); nothing changed;</li>
 *   <li>409 {@code reload_unavailable}: the gateway was not started from a file;</li>
 *   <li>409 {@code reload_superseded}: a reload that started later was decided first (a slow reload
 *       never holds up a later one); this one changed nothing.</li>
 * </ul>
 * Thread-safe.
 */
public final class ReloadHandler {

    /** The path it serves. */
    public static final String PATH = "/admin/reload";

    private final ConfigReloader reloader;
    private final AdminAuthorization authorization;

    /** Reloads through {@code reloader}; requests need {@code adminToken}. */
    public ReloadHandler(ConfigReloader reloader, Supplier<String> adminToken) {
        this.reloader = Objects.requireNonNull(reloader, "reloader");
        this.authorization = new AdminAuthorization(adminToken);
    }

    /** Adds the route to {@code router}. */
    public void mount(Router router) {
        router.post(PATH).handler(this::reload);
    }

    private void reload(RoutingContext ctx) {
        if (!authorization.permits(ctx.request(), ctx.response())) {
            return;
        }
        if (!reloader.available()) {
            GatewayErrors.respondAdmin(ctx.response(), 409, "reload_unavailable",
                    "the gateway was started without a configuration file, so there is nothing to reload");
            return;
        }
        reloader.reload("admin API").onComplete(done -> {
            if (ctx.response().closed()) {
                return;
            }
            if (done.succeeded()) {
                ctx.response().putHeader("content-type", "application/json").end(done.result().toJson().encode());
            } else if (done.cause() instanceof ConfigException invalid) {
                invalidConfig(ctx, invalid);
            } else if (done.cause() instanceof ReloadSupersededException superseded) {
                GatewayErrors.respondAdmin(ctx.response(), 409, "reload_superseded", superseded.getMessage());
            } else {
                // The reloader has logged it; its text may name the gateway's insides, which are not the caller's business.
                GatewayErrors.respondAdmin(ctx.response(), 500, "internal_error",
                        "the configuration could not be reloaded because of an error inside the gateway (see its log);"
                                + " the one in force stays");
            }
        });
    }

    private static void invalidConfig(RoutingContext ctx, ConfigException invalid) {
        JsonArray errors = new JsonArray();
        for (ConfigError error : invalid.errors()) {
            errors.add(new JsonObject().put("key", error.path()).put("line", error.line()).put("column", error.column())
                    .put("message", error.message()));
        }
        JsonObject body = new JsonObject().put("error", new JsonObject().put("type", "invalid_config")
                .put("message", "the configuration was not reloaded; the one in force stays:\n" + invalid.getMessage())
                .put("errors", errors));
        ctx.response().setStatusCode(400).putHeader("content-type", "application/json")
                .putHeader(GatewayErrors.SHOULD_RETRY, "false").end(body.encode());
    }
}
