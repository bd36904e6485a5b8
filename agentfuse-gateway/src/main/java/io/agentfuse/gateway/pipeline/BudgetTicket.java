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
 * <p>A call cut off after it was sent — a hedge that lost its race, an attempt past its timeout
 * or a stream past its first-token limit, a call whose caller left — is charged too, for the input
 * its provider read: the request's counted input tokens at the price of the call's model
 * ({@link #cutOff}). What the answer used comes on top. A provider bills a prompt it began on
 * whether or not the answer is read; a hedged request that was counted once would let a budget
 * spend twice what it says.
 *
 * <p>Settled once, on its exchange's context; calls may be cut off on another thread.
 */
final class BudgetTicket {

    /** A budget counted for this request, and what its window said. */
    record Counted(BudgetConfig budget, BudgetClaim claim, WindowTally tally) {
    }

    /** The ticket of an exchange before the budget stage decided (or that never got that far): nothing to count. */
    static final BudgetTicket NONE = new BudgetTicket(null, null, null, null, List.of(), List.of(), BudgetAmount.ZERO, 0, false);

    private static final Runnable NOTHING = () -> {
    };

    /** Until {@link #takeRequest}: the ticket lives as long as its exchange (a stream's whole length). */
    private ModelRequest request;
    private final GatewayException refusal;
    private final BudgetLedger ledger;
    private final String reservationId;
    private final List<Counted> reserved;
    private final List<Counted> spent;
    private final BudgetAmount estimate;
    private final long inputTokens;
    private final boolean countsCost;
    private boolean settled;
    /** What the calls cut off after they were sent are charged, so far. */
    private BudgetAmount cutOff = BudgetAmount.ZERO;

    private BudgetTicket(ModelRequest request, GatewayException refusal, BudgetLedger ledger, String reservationId,
                         List<Counted> reserved, List<Counted> spent, BudgetAmount estimate, long inputTokens,
                         boolean countsCost) {
        this.request = request;
        this.refusal = refusal;
        this.ledger = ledger;
        this.reservationId = reservationId;
        this.reserved = List.copyOf(reserved);
        this.spent = List.copyOf(spent);
        this.estimate = estimate;
        this.inputTokens = inputTokens;
        this.countsCost = countsCost;
    }

    /** No budget applies to {@code request}. */
    static BudgetTicket none(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        return new BudgetTicket(request, null, null, null, List.of(), List.of(), BudgetAmount.ZERO, 0, false);
    }

    /**
     * {@code request} admitted: reserved as {@code reservationId} in the windows of {@code reserved}
     * (none when every budget that applies is spent and fell back), served past the spent
     * budgets {@code spent}; {@code inputTokens} is what the request's input counted.
     */
    static BudgetTicket admitted(ModelRequest request, BudgetLedger ledger, String reservationId, List<Counted> reserved,
                                 List<Counted> spent, BudgetAmount estimate, long inputTokens, boolean countsCost) {
        return new BudgetTicket(request, null, ledger, reservationId, reserved, spent, estimate, inputTokens, countsCost);
    }

    /** {@code request} refused with {@code refusal}; {@code refusedBy} is the budget with nothing left, if one. */
    static BudgetTicket refused(ModelRequest request, GatewayException refusal, Counted refusedBy) {
        return new BudgetTicket(request, refusal, null, null, List.of(),
                refusedBy == null ? List.of() : List.of(refusedBy), BudgetAmount.ZERO, 0, false);
    }

    /**
     * The request to serve: the caller's, or the same for a budget's fallback model. Handed on once,
     * and then forgotten, so that the conversation and the caller's bytes are not kept alive with the ticket.
     */
    ModelRequest takeRequest() {
        ModelRequest served = request;
        request = null;
        return served;
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
            WindowTally after = used == null ? counted.tally() : counted.tally().settle(estimate, withCutOff(used));
            headers.add(BudgetHeader.NAME, BudgetHeader.value(counted.budget(), after.limit(), after.remaining(),
                    after.endMillis()));
        }
    }

    /**
     * What a call of {@code answeredBy} that reported {@code usage} used, at its price: its input
     * read from or written to the provider's cache at the price of each.
     */
    BudgetAmount used(Usage usage, ModelConfig answeredBy) {
        return TokenEstimate.used(usage.inputTokens(), usage.cached(), usage.outputTokens(),
                priceOf(answeredBy, countsCost));
    }

    /**
     * The price a call of {@code model} is counted at: its own ({@code models.<m>.price} or the
     * table's); without one, when a budget counts cost, {@link ModelFamilies#unpricedPriceOf} its
     * upstream name (a family model served without an entry: a configured model without a price is
     * refused by the loader under a cost budget); else none (tokens only).
     */
    static ModelPrice priceOf(ModelConfig model, boolean countsCost) {
        return model.price().orElseGet(() -> countsCost ? ModelFamilies.unpricedPriceOf(model.upstreamModel()) : null);
    }

    /**
     * What the exchange is charged when its provider's account of it is {@code told}
     * ({@link TokenEstimate#charged}): that account when it is {@code accounted} for; else — a stream
     * broken before its final one, an answer that tells no tokens — its reservation, or what was told if more.
     */
    BudgetAmount charged(BudgetAmount told, boolean accounted) {
        return TokenEstimate.charged(estimate, told, accounted);
    }

    /**
     * Charges a call of {@code model} cut off after it was sent: the request's input at that model's
     * price, with the settlement, or alone when it came before (a caller who left is seen to have
     * left before its call is cut). Only for a request that reserved something ({@link #cutOffOf}).
     */
    private void cutOff(ModelConfig model) {
        charge(used(new Usage(inputTokens, 0), model));
    }

    /**
     * Charges an answer of {@code model} its provider gave whole that failed all the same (one its
     * caller's dialect cannot say, {@link Delivery#body}): the provider billed the tokens it told,
     * {@code usage}, or when it told none the input it read, as for a call cut off. Nothing for a
     * request that reserved nothing.
     */
    void chargeFailedAnswer(ModelConfig model, Usage usage) {
        if (reservationId != null) {
            charge(usage.isZero() ? used(new Usage(inputTokens, 0), model) : used(usage, model));
        }
    }

    /** Adds {@code charge} to the settlement, or settles it alone when the settlement came before. */
    private void charge(BudgetAmount charge) {
        synchronized (this) {
            if (!settled) {
                cutOff = cutOff.plus(charge);
                return;
            }
        }
        // The reservation is settled: the ledger counts what it is told of it as spent.
        ledger.settle(reservationId, claims(), BudgetAmount.ZERO, charge);
    }

    /**
     * What charges a call of {@code model} cut off after it was sent ({@link #cutOff}), for the
     * upstream client to run: one that does nothing, and costs nothing, for a request that reserved nothing.
     */
    Runnable cutOffOf(ModelConfig model) {
        return reservationId == null ? NOTHING : () -> cutOff(model);
    }

    private List<BudgetClaim> claims() {
        return reserved.stream().map(Counted::claim).toList();
    }

    private synchronized BudgetAmount withCutOff(BudgetAmount used) {
        return used.plus(cutOff);
    }

    /**
     * Settles the reservation as {@code used} and the calls cut off before, once; nothing for a
     * request that reserved nothing.
     */
    void settle(BudgetAmount used) {
        BudgetAmount spent;
        synchronized (this) {
            if (settled || reservationId == null) {
                return;
            }
            settled = true;
            spent = used.plus(cutOff);
        }
        ledger.settle(reservationId, claims(), estimate, spent);
    }
}
