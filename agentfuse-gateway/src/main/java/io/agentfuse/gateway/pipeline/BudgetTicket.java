package io.agentfuse.gateway.pipeline;

import io.agentfuse.agent.budget.TokenEstimate;
import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ModelFamilies;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.gateway.budget.BudgetHeader;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.MultiMap;

import java.util.List;
import java.util.Objects;

/**
 * What the {@link BudgetStage} decided for one request: the request to serve (by a budget's
 * fallback model when a budget is spent), or its refusal; the reservation to settle once the call
 * ended; and the {@code x-agentfuse-budget} values of its answer.
 *
 * <p>Confined to its exchange's context; settled once.
 */
final class BudgetTicket {

    /** A budget counted for this request, and what its window said. */
    record Counted(BudgetConfig budget, BudgetClaim claim, WindowTally tally) {
    }

    /** The ticket of an exchange before the budget stage decided (or that never got that far): nothing to count. */
    static final BudgetTicket NONE = new BudgetTicket(null, null, null, null, List.of(), List.of(), BudgetAmount.ZERO, false);

    private final ModelRequest request;
    private final GatewayException refusal;
    private final BudgetLedger ledger;
    private final String reservationId;
    private final List<Counted> reserved;
    private final List<Counted> spent;
    private final BudgetAmount estimate;
    private final boolean countsCost;
    private boolean settled;

    private BudgetTicket(ModelRequest request, GatewayException refusal, BudgetLedger ledger, String reservationId,
                         List<Counted> reserved, List<Counted> spent, BudgetAmount estimate, boolean countsCost) {
        this.request = request;
        this.refusal = refusal;
        this.ledger = ledger;
        this.reservationId = reservationId;
        this.reserved = List.copyOf(reserved);
        this.spent = List.copyOf(spent);
        this.estimate = estimate;
        this.countsCost = countsCost;
    }

    /** No budget applies to {@code request}. */
    static BudgetTicket none(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        return new BudgetTicket(request, null, null, null, List.of(), List.of(), BudgetAmount.ZERO, false);
    }

    /**
     * {@code request} admitted: reserved as {@code reservationId} in the windows of {@code reserved}
     * (none when every budget that applies is spent and fell back), served past the spent
     * budgets {@code spent}.
     */
    static BudgetTicket admitted(ModelRequest request, BudgetLedger ledger, String reservationId, List<Counted> reserved,
                                 List<Counted> spent, BudgetAmount estimate, boolean countsCost) {
        return new BudgetTicket(request, null, ledger, reservationId, reserved, spent, estimate, countsCost);
    }

    /** {@code request} refused with {@code refusal}; {@code refusedBy} is the budget with nothing left, if one. */
    static BudgetTicket refused(ModelRequest request, GatewayException refusal, Counted refusedBy) {
        return new BudgetTicket(request, refusal, null, null, List.of(),
                refusedBy == null ? List.of() : List.of(refusedBy), BudgetAmount.ZERO, false);
    }

    /** The request to serve: the caller's, or the same for a budget's fallback model. */
    ModelRequest request() {
        return request;
    }

    /** Why the request is refused, or {@code null} when it is admitted. */
    GatewayException refusal() {
        return refusal;
    }

    /** What was reserved. */
    BudgetAmount estimate() {
        return estimate;
    }

    /**
     * Puts one {@code x-agentfuse-budget} value per budget counted on {@code headers}: what each has
     * left once this request is settled as {@code used} ({@code null}: as reserved, for an answer
     * whose usage is not known yet), and the spent budgets it was served past (or refused by).
     */
    void putHeaders(MultiMap headers, BudgetAmount used) {
        for (Counted counted : spent) {
            headers.add(BudgetHeader.NAME, BudgetHeader.value(counted.budget(), counted.tally().limit(),
                    counted.tally().remaining(), counted.tally().endMillis()));
        }
        for (Counted counted : reserved) {
            WindowTally after = used == null ? counted.tally() : counted.tally().settle(estimate, used);
            headers.add(BudgetHeader.NAME, BudgetHeader.value(counted.budget(), after.limit(), after.remaining(),
                    after.endMillis()));
        }
    }

    /** What a call of {@code answeredBy} that reported {@code usage} used, at its price. */
    BudgetAmount used(Usage usage, ModelConfig answeredBy) {
        ModelPrice price = answeredBy.price().orElse(countsCost ? ModelFamilies.HIGHEST_PRICE : null);
        return TokenEstimate.used(usage.inputTokens(), usage.outputTokens(), price);
    }

    /** Settles the reservation as {@code used}, once; nothing for a request that reserved nothing. */
    void settle(BudgetAmount used) {
        if (settled || reservationId == null) {
            return;
        }
        settled = true;
        ledger.settle(reservationId, reserved.stream().map(Counted::claim).toList(), estimate, used);
    }
}
