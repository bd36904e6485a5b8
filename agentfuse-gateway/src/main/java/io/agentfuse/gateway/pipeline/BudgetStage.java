package io.agentfuse.gateway.pipeline;

import io.agentfuse.agent.budget.TokenEstimate;
import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.gateway.budget.Caller;
import io.agentfuse.gateway.budget.ClientKeys;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The pipeline's budget stage (docs/design.md §11), between parsing and routing: it reserves the
 * request's estimate ({@link TokenEstimate}: the context stage's count of its input plus its
 * {@code max_tokens}, capped) against every budget that applies to its caller — all of them at
 * once, in one ledger call, or none — so that a request that cannot reserve is refused before any
 * upstream call, and concurrent requests cannot overshoot together.
 *
 * <ul>
 *   <li>A budget applies when its scope has a value for the caller ({@link Caller#scopeValue}).</li>
 *   <li>A spent budget with {@code onExhausted: reject} refuses: 429 {@code budget_exceeded}, with
 *       {@code Retry-After} only when its window ends within a minute.</li>
 *   <li>A spent budget with {@code onExhausted: {fallback: M}} passes the request to {@code M}, whose
 *       estimate is reserved against the other budgets (and past every spent budget that falls back
 *       to {@code M} too); one such switch per request.</li>
 *   <li>A ledger that cannot tell (Redis away under {@code budgetOnLoss: closed}) refuses with 503
 *       {@code budget_unavailable}.</li>
 * </ul>
 * The exchange settles the reservation with the answer's usage when it ends ({@link BudgetTicket}).
 *
 * <p>Thread-safe: one instance serves every request; reads the configuration in force per request.
 */
final class BudgetStage {

    /** How long a caller refused by a ledger that cannot tell is told to wait. */
    private static final Duration UNAVAILABLE_RETRY_AFTER = Duration.ofSeconds(1);

    private final Supplier<AgentfuseConfig> config;
    private final Function<String, Optional<ModelConfig>> models;
    private final BudgetLedger ledger;
    private final ClientKeys clients;
    private final ContextStage context;
    private final Clock clock;

    /**
     * @param config  the configuration in force
     * @param models  the model a name is served by (a budget's fallback)
     * @param ledger  where budgets are counted
     * @param clients who a request comes from
     * @param context counts a request's input ({@link ContextStage#inputTokens})
     * @param clock   the time windows are read from
     */
    BudgetStage(Supplier<AgentfuseConfig> config, Function<String, Optional<ModelConfig>> models, BudgetLedger ledger,
                ClientKeys clients, ContextStage context, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.models = Objects.requireNonNull(models, "models");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.context = Objects.requireNonNull(context, "context");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Who requests come from. */
    ClientKeys clients() {
        return clients;
    }

    /**
     * The ticket of {@code request} from {@code caller}; completes at once with a local ledger,
     * within the ledger's bounded wait with a shared one (on the ledger's thread).
     */
    Future<BudgetTicket> admit(ModelRequest request, Caller caller) {
        List<BudgetConfig> applied = new ArrayList<>();
        for (BudgetConfig budget : config.get().budgets().values()) {
            if (caller.scopeValue(budget.scope()) != null) {
                applied.add(budget);
            }
        }
        if (applied.isEmpty()) {
            return Future.succeededFuture(BudgetTicket.none(request));
        }
        long inputTokens = context.inputTokens(request.chat(), request.model());
        Promise<BudgetTicket> ticket = Promise.promise();
        new Admission(request, caller, applied, inputTokens, clock.epochMillis(), ticket).attempt(request, List.of());
        return ticket.future();
    }

    /** One request's way through its budgets: a reservation, and at most one switch to a fallback. */
    private final class Admission {
        private final ModelRequest asked;
        private final Caller caller;
        private final List<BudgetConfig> applied;
        private final long inputTokens;
        private final long now;
        private final Promise<BudgetTicket> ticket;

        Admission(ModelRequest asked, Caller caller, List<BudgetConfig> applied, long inputTokens, long now,
                  Promise<BudgetTicket> ticket) {
            this.asked = asked;
            this.caller = caller;
            this.applied = applied;
            this.inputTokens = inputTokens;
            this.now = now;
            this.ticket = ticket;
        }

        /** Reserves for {@code request} against every applied budget not in {@code spent}. */
        void attempt(ModelRequest request, List<BudgetTicket.Counted> spent) {
            List<BudgetConfig> active = applied.stream()
                    .filter(budget -> spent.stream().noneMatch(counted -> counted.budget() == budget)).toList();
            boolean countsCost = active.stream().anyMatch(BudgetConfig::countsCost);
            ModelConfig model = request.model();
            ModelPrice price = BudgetTicket.priceOf(model, countsCost);
            BudgetAmount estimate = TokenEstimate.of(inputTokens, request.chat().sampling().maxTokens(),
                    model.contextWindow(), price);
            if (active.isEmpty()) {
                ticket.complete(BudgetTicket.admitted(request, ledger, null, List.of(), spent, estimate, inputTokens, false));
                return;
            }
            List<BudgetClaim> claims = active.stream().map(this::claim).toList();
            ledger.reserve(claims, estimate).whenComplete((result, failure) -> {
                if (failure != null) {
                    ticket.complete(unavailable(request, active.get(0), "the ledger failed: " + failure));
                } else if (result instanceof ReserveResult.Admitted admitted) {
                    List<BudgetTicket.Counted> reserved = new ArrayList<>();
                    for (int i = 0; i < active.size(); i++) {
                        reserved.add(new BudgetTicket.Counted(active.get(i), claims.get(i), admitted.tallies().get(i)));
                    }
                    ticket.complete(BudgetTicket.admitted(request, ledger, admitted.reservationId(), reserved, spent,
                            estimate, inputTokens, countsCost));
                } else if (result instanceof ReserveResult.Refused refused) {
                    BudgetConfig budget = active.get(refused.claim());
                    refusedBy(request, spent, new BudgetTicket.Counted(budget, claims.get(refused.claim()), refused.tally()));
                } else {
                    ticket.complete(unavailable(request, active.get(0), ((ReserveResult.Unavailable) result).reason()));
                }
            });
        }

        /** A spent budget: its fallback serves the request, or the request is refused. */
        private void refusedBy(ModelRequest request, List<BudgetTicket.Counted> spent, BudgetTicket.Counted counted) {
            Optional<ModelConfig> fallback = counted.budget().fallback().flatMap(models);
            // Once a spent budget has passed the request on, its model stays: only budgets that fall back to it pass too.
            boolean settledModel = !spent.isEmpty();
            if (fallback.isPresent() && (!settledModel || fallback.get().name().equals(request.model().name()))) {
                List<BudgetTicket.Counted> passed = new ArrayList<>(spent);
                passed.add(counted);
                ModelRequest next = fallback.get().name().equals(request.model().name()) ? request
                        : request.withBudgetFallback(fallback.get());
                attempt(next, passed);
                return;
            }
            ticket.complete(BudgetTicket.refused(asked, exceeded(counted), counted));
        }

        private GatewayException exceeded(BudgetTicket.Counted counted) {
            BudgetConfig budget = counted.budget();
            // When the window ends: a Retry-After only within a minute (GatewayErrors), a RetryInfo to Google's callers.
            Duration retryAfter = Duration.ofMillis(Math.max(0, counted.tally().endMillis() - clock.epochMillis()));
            String scope = budget.scope() == BudgetConfig.Scope.GLOBAL ? "" : " of " + budget.scope().yamlName() + " '"
                    + caller.scopeValue(budget.scope()) + "'";
            return new GatewayException(GatewayError.BUDGET_EXCEEDED, "budget '" + budget.name() + "'" + scope
                    + " is spent for this window (" + limitOf(budget) + " per " + DurationFormat.format(budget.window())
                    + "); it resets at " + Instant.ofEpochMilli(counted.tally().endMillis()),
                    retryAfter);
        }

        private BudgetTicket unavailable(ModelRequest request, BudgetConfig budget, String reason) {
            return BudgetTicket.refused(request, new GatewayException(GatewayError.BUDGET_UNAVAILABLE,
                    "budget '" + budget.name() + "' cannot be checked now: " + reason, UNAVAILABLE_RETRY_AFTER), null);
        }

        private BudgetClaim claim(BudgetConfig budget) {
            var window = budget.windows();
            return new BudgetClaim(new WindowKey(budget.name(), caller.scopeValue(budget.scope()), window.startOf(now)),
                    budget.limit(), window.endOf(now), caller.named(budget.scope()));
        }
    }

    private static String limitOf(BudgetConfig budget) {
        String tokens = budget.tokens().isPresent() ? budget.tokens().getAsLong() + " tokens" : null;
        String cost = budget.cost().map(usd -> usd.toPlainString() + " USD").orElse(null);
        return tokens == null ? cost : cost == null ? tokens : tokens + " and " + cost;
    }
}
