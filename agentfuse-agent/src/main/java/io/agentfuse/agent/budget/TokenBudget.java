package io.agentfuse.agent.budget;

import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A token and/or cost budget per window — a breaker on a running sum: calls reserve their estimate
 * ({@link TokenEstimate}) before they run and settle with their real usage after; a call that finds
 * nothing left in its scope's window is refused before it runs ({@link BudgetExceededException}).
 * Concurrent calls cannot overshoot together: each reservation is counted the moment it is made,
 * so a window overshoots its limit by one call's estimate at most. The gateway keeps the same rules
 * with the same types; budgets sharing one {@link BudgetLedger} on Redis hold across a fleet.
 *
 * <p>Defaults: a window of one day (aligned to UTC midnight), the system clock, a ledger of its
 * own in memory. Immutable and thread-safe; a {@link Reservation} is settled once.
 *
 * <pre>{@code
 * TokenBudget budget = TokenBudget.builder("per-session").tokens(500_000).window(Duration.ofDays(1)).build();
 * TokenBudget.Reservation reservation = budget.reserve("session-42", TokenEstimate.of(1_200, 800, 200_000, null));
 * try {
 *     ChatResponse answer = model.chat(request);
 *     reservation.settle(TokenEstimate.used(answer.input(), answer.output(), null));
 * } catch (RuntimeException failed) {
 *     reservation.release();
 *     throw failed;
 * }
 * }</pre>
 */
public final class TokenBudget {

    /** The scope value of a budget counted for everything ({@code scope: global}). */
    public static final String GLOBAL = "global";

    private final String name;
    private final BudgetLimit limit;
    private final BudgetWindow window;
    private final BudgetLedger ledger;
    private final Clock clock;

    private TokenBudget(Builder builder) {
        this.name = builder.name;
        this.limit = new BudgetLimit(builder.tokens, builder.costNanos);
        this.window = BudgetWindow.of(builder.window);
        this.clock = builder.clock;
        this.ledger = builder.ledger != null ? builder.ledger : new LocalBudgetLedger(clock);
    }

    /** A builder of the budget called {@code name} (letters, digits, {@code . _ -}). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The budget's name. */
    public String name() {
        return name;
    }

    /** What it allows per window. */
    public BudgetLimit limit() {
        return limit;
    }

    /** Its windows. */
    public BudgetWindow window() {
        return window;
    }

    /** The ledger it counts in. */
    public BudgetLedger ledger() {
        return ledger;
    }

    /** The claim on {@code scopeValue}'s window at this moment. */
    public BudgetClaim claim(String scopeValue) {
        long now = clock.epochMillis();
        return new BudgetClaim(new WindowKey(name, scopeValue, window.startOf(now)), limit, window.endOf(now));
    }

    /**
     * Reserves {@code estimate} in {@code scopeValue}'s current window, waiting for the ledger
     * (a local one answers at once).
     *
     * @throws BudgetExceededException    when the window has nothing left
     * @throws BudgetUnavailableException when the ledger cannot tell now
     */
    public Reservation reserve(String scopeValue, BudgetAmount estimate) {
        try {
            return reserveAsync(scopeValue, estimate).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** {@link #reserve}, without waiting: the stage fails with the same exceptions. */
    public CompletionStage<Reservation> reserveAsync(String scopeValue, BudgetAmount estimate) {
        Objects.requireNonNull(scopeValue, "scopeValue");
        Objects.requireNonNull(estimate, "estimate");
        List<BudgetClaim> claims = List.of(claim(scopeValue));
        return ledger.reserve(claims, estimate).thenCompose(result -> {
            if (result instanceof ReserveResult.Admitted admitted) {
                return CompletableFuture.completedFuture(new Reservation(this, admitted, claims, estimate));
            }
            RuntimeException refusal = result instanceof ReserveResult.Refused refused
                    ? new BudgetExceededException(refused.tally())
                    : new BudgetUnavailableException(name, ((ReserveResult.Unavailable) result).reason());
            return CompletableFuture.failedFuture(refusal);
        });
    }

    /**
     * Runs {@code call} under this budget for {@code scopeValue} — the protocol of every decorator:
     * reserves {@code estimate} (or throws before the call), runs the call, and settles with what
     * {@code used} says its result used; a call that throws gives its reservation back (providers do
     * not bill a failed call) and its exception goes on as it was.
     *
     * @throws BudgetExceededException    when the window has nothing left; the call is not made
     * @throws BudgetUnavailableException when the ledger cannot tell now; the call is not made
     */
    public <T> T run(String scopeValue, BudgetAmount estimate, Supplier<T> call, Function<? super T, BudgetAmount> used) {
        Reservation reservation = reserve(scopeValue, estimate);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error failed) {
            reservation.release();
            throw failed;
        }
        reservation.settle(used.apply(result));
        return result;
    }

    @Override
    public String toString() {
        return "TokenBudget[" + name + ", " + limit + " per " + window.length() + "]";
    }

    /**
     * A call's reservation: settle it once with what the call used, or release it when the call
     * did not run. Thread-safe; a second settle is ignored.
     */
    public static final class Reservation {
        private final TokenBudget budget;
        private final ReserveResult.Admitted admitted;
        private final List<BudgetClaim> claims;
        private final BudgetAmount estimate;
        private final AtomicBoolean settled = new AtomicBoolean();

        private Reservation(TokenBudget budget, ReserveResult.Admitted admitted, List<BudgetClaim> claims,
                            BudgetAmount estimate) {
            this.budget = budget;
            this.admitted = admitted;
            this.claims = claims;
            this.estimate = estimate;
        }

        /** What was reserved. */
        public BudgetAmount estimate() {
            return estimate;
        }

        /** What the window had left once this was reserved. */
        public BudgetAmount remaining() {
            return admitted.tallies().get(0).remaining();
        }

        /** Counts {@code used} instead of the estimate. */
        public CompletionStage<Void> settle(BudgetAmount used) {
            Objects.requireNonNull(used, "used");
            if (!settled.compareAndSet(false, true)) {
                return CompletableFuture.completedFuture(null);
            }
            return budget.ledger.settle(admitted.reservationId(), claims, estimate, used);
        }

        /** Gives the reservation back: the call did not run (or used nothing). */
        public CompletionStage<Void> release() {
            return settle(BudgetAmount.ZERO);
        }
    }

    /** Collects a budget's settings; not thread-safe. */
    public static final class Builder {
        private final String name;
        private long tokens = BudgetLimit.NONE;
        private long costNanos = BudgetLimit.NONE;
        private Duration window = Duration.ofDays(1);
        private BudgetLedger ledger;
        private Clock clock = Clock.system();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("a budget's name is made of letters, digits, '.', '_' and '-', but was '"
                        + name + "'");
            }
            this.name = name;
        }

        /** Input plus output tokens per window, {@code > 0}. */
        public Builder tokens(long tokens) {
            if (tokens <= 0) {
                throw new IllegalArgumentException("tokens must be > 0, but was " + tokens);
            }
            this.tokens = tokens;
            return this;
        }

        /** USD per window, {@code > 0}; calls count their cost at the price given with their estimate. */
        public Builder cost(BigDecimal usd) {
            if (usd == null || usd.signum() <= 0) {
                throw new IllegalArgumentException("cost must be > 0 USD, but was " + usd);
            }
            this.costNanos = ModelPrice.nanosOf(usd);
            return this;
        }

        /** The length of each window (aligned to the Unix epoch: 1 d to UTC midnight, 1 h to the hour); default 1 day. */
        public Builder window(Duration window) {
            BudgetWindow.of(window); // checked here, where the bad value is named
            this.window = window;
            return this;
        }

        /** Where the budget is counted; default a {@link LocalBudgetLedger} of its own. */
        public Builder ledger(BudgetLedger ledger) {
            this.ledger = Objects.requireNonNull(ledger, "ledger");
            return this;
        }

        /** The clock windows are read from; default the system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The budget; throws when it limits neither tokens nor cost. */
        public TokenBudget build() {
            return new TokenBudget(this);
        }
    }
}
