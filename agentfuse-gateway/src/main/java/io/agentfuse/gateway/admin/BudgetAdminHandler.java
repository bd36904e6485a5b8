package io.agentfuse.gateway.admin;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.gateway.http.GatewayErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The admin API over budgets (docs/design.md §11):
 * <ul>
 *   <li>{@code GET /admin/budgets} → {@code {"budgets": [{"name", "scope", "tokens", "cost", "window",
 *       "onExhausted", "windows": [{"scopeValue", "spent", "reserved", "remaining", "resets"}]}]}}:
 *       each configured budget with its windows in use (not ended) — with Redis, the fleet's; amounts
 *       are {@code {"tokens": n, "cost": usd}}, a part the budget does not limit has a remaining
 *       of {@code null};</li>
 *   <li>{@code POST /admin/budgets/{name}/{scopeValue}/reset} → forgets what the current window of
 *       {@code scopeValue} spent (calls in flight keep their reservations); needs the admin token
 *       ({@link AdminAuthorization}); 404 {@code not_found} for a budget not configured.</li>
 * </ul>
 * A scope value may be sent percent-encoded; the global scope's value is {@code global}. Thread-safe.
 *
 * <pre>{@code
 * new BudgetAdminHandler(runtime::config, ledger, Clock.system(), () -> runtime.config().server().adminToken()).mount(router);
 * }</pre>
 */
public final class BudgetAdminHandler {

    private static final String PREFIX = "/admin/budgets/";
    private static final String RESET = "/reset";

    private final Supplier<AgentfuseConfig> config;
    private final BudgetLedger ledger;
    private final Clock clock;
    private final AdminAuthorization authorization;

    /** Shows and resets the windows of {@code config}'s budgets counted in {@code ledger}. */
    public BudgetAdminHandler(Supplier<AgentfuseConfig> config, BudgetLedger ledger, Clock clock,
                              Supplier<String> adminToken) {
        this.config = Objects.requireNonNull(config, "config");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.authorization = new AdminAuthorization(adminToken);
    }

    /** Adds the routes to {@code router}. */
    public void mount(Router router) {
        router.get("/admin/budgets").handler(this::list);
        router.post(PREFIX + "*").handler(this::reset);
    }

    private void list(RoutingContext ctx) {
        AgentfuseConfig current = config.get();
        ledger.windows(clock.epochMillis()).whenComplete((windows, failure) -> {
            if (failure != null) {
                GatewayErrors.respondAdmin(ctx.response(), 503, "budget_unavailable",
                        "the budgets' windows cannot be read now: " + failure.getMessage());
                return;
            }
            JsonArray budgets = new JsonArray();
            current.budgets().values().forEach(budget -> budgets.add(view(budget, windows)));
            json(ctx, new JsonObject().put("budgets", budgets));
        });
    }

    private void reset(RoutingContext ctx) {
        if (!authorization.permits(ctx.request(), ctx.response())) {
            return;
        }
        // The route's wildcard takes /admin/budgets itself too, which is shorter than the prefix.
        String rest = AdminPath.after(ctx, PREFIX);
        int slash = rest.indexOf('/');
        if (slash <= 0 || !rest.endsWith(RESET) || rest.length() <= slash + 1 + RESET.length()) {
            GatewayErrors.respondAdmin(ctx.response(), 404, "not_found",
                    "unknown operation: use POST /admin/budgets/{name}/{scopeValue}/reset");
            return;
        }
        String name = AdminPath.decode(rest.substring(0, slash));
        String scopeValue = AdminPath.decode(rest.substring(slash + 1, rest.length() - RESET.length()));
        BudgetConfig budget = config.get().budgets().get(name);
        if (budget == null) {
            GatewayErrors.respondAdmin(ctx.response(), 404, "not_found", "no budget named '" + name + "'; configured: "
                    + String.join(", ", config.get().budgets().keySet()));
            return;
        }
        BudgetWindow window = budget.windows();
        long now = clock.epochMillis();
        ledger.reset(new WindowKey(name, scopeValue, window.startOf(now))).whenComplete((found, failure) -> {
            if (failure != null) {
                GatewayErrors.respondAdmin(ctx.response(), 503, "budget_unavailable",
                        "the budget cannot be reset now: " + failure.getMessage());
                return;
            }
            json(ctx, new JsonObject().put("budget", name).put("scopeValue", scopeValue).put("reset", found)
                    .put("resets", Instant.ofEpochMilli(window.endOf(now)).toString()));
        });
    }

    private static JsonObject view(BudgetConfig budget, List<WindowTally> windows) {
        JsonArray inUse = new JsonArray();
        for (WindowTally tally : windows) {
            if (tally.key().budget().equals(budget.name())) {
                WindowTally current = tally.withLimit(budget.limit());
                inUse.add(new JsonObject()
                        .put("scopeValue", tally.key().scopeValue())
                        .put("spent", amount(current.spent()))
                        .put("reserved", amount(current.reserved()))
                        .put("remaining", new JsonObject()
                                .put("tokens", budget.tokens().isPresent() ? current.remaining().tokens() : null)
                                .put("cost", budget.cost().isPresent() ? usd(current.remaining().costNanos()) : null))
                        .put("resets", Instant.ofEpochMilli(tally.endMillis()).toString()));
            }
        }
        return new JsonObject()
                .put("name", budget.name())
                .put("scope", budget.scope().yamlName())
                .put("tokens", budget.tokens().isPresent() ? budget.tokens().getAsLong() : null)
                .put("cost", budget.cost().orElse(null))
                .put("window", DurationFormat.format(budget.window()))
                .put("onExhausted", budget.fallback().<Object>map(model -> new JsonObject().put("fallback", model))
                        .orElse("reject"))
                .put("windows", inUse);
    }

    private static JsonObject amount(BudgetAmount amount) {
        return new JsonObject().put("tokens", amount.tokens()).put("cost", usd(amount.costNanos()));
    }

    private static BigDecimal usd(long nanos) {
        return new BigDecimal(ModelPrice.usdOf(nanos));
    }

    private static void json(RoutingContext ctx, JsonObject body) {
        ctx.response().setStatusCode(200).putHeader("content-type", "application/json").end(body.encode());
    }
}
