package io.agentfuse.core.budget;

import io.agentfuse.core.Clock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A ledger in this process's memory: the budgets of one instance, or of a library user. Answers at
 * once (its stages are complete when returned). A window is forgotten when it ends; at most
 * {@code maxWindows} windows are kept, and a reservation that would need one more, when none has
 * ended, is {@link ReserveResult.Unavailable} (a caller choosing ever new session ids cannot grow
 * it without bound).
 *
 * <p>Thread-safe: one lock over the windows (a reservation touches a handful of them in
 * microseconds). Time comes from the injected clock's wall time.
 *
 * <pre>{@code
 * BudgetLedger ledger = new LocalBudgetLedger(Clock.system());
 * }</pre>
 */
public final class LocalBudgetLedger implements BudgetLedger {

    /** The windows kept at most, unless told otherwise. */
    public static final int DEFAULT_MAX_WINDOWS = 100_000;

    private final Clock clock;
    private final int maxWindows;
    private final Map<WindowKey, WindowTally> windows = new HashMap<>();
    private final Set<String> inFlight = new HashSet<>();
    private long nextId;

    /** A ledger of at most {@link #DEFAULT_MAX_WINDOWS} windows. */
    public LocalBudgetLedger(Clock clock) {
        this(clock, DEFAULT_MAX_WINDOWS);
    }

    /** A ledger of at most {@code maxWindows} windows. */
    public LocalBudgetLedger(Clock clock, int maxWindows) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxWindows < 1) {
            throw new IllegalArgumentException("maxWindows must be >= 1, but was " + maxWindows);
        }
        this.maxWindows = maxWindows;
    }

    @Override
    public CompletionStage<ReserveResult> reserve(List<BudgetClaim> claims, BudgetAmount estimate) {
        return CompletableFuture.completedFuture(reserveNow(claims, estimate));
    }

    /** {@link #reserve}, answered on the calling thread. */
    public synchronized ReserveResult reserveNow(List<BudgetClaim> claims, BudgetAmount estimate) {
        Objects.requireNonNull(estimate, "estimate");
        List<WindowTally> current = new ArrayList<>(claims.size());
        int added = 0;
        for (int i = 0; i < claims.size(); i++) {
            BudgetClaim claim = claims.get(i);
            WindowTally tally = windows.get(claim.key());
            if (tally == null) {
                tally = WindowTally.empty(claim);
                added++;
            } else {
                tally = tally.withLimit(claim.limit());
            }
            if (!tally.admits()) {
                return new ReserveResult.Refused(i, tally);
            }
            current.add(tally);
        }
        if (added > 0 && windows.size() + added > maxWindows) {
            forgetEnded();
            if (windows.size() + added > maxWindows) {
                return new ReserveResult.Unavailable("the budgets count " + windows.size()
                        + " windows already, as many as they may");
            }
        }
        List<WindowTally> after = new ArrayList<>(current.size());
        for (WindowTally tally : current) {
            WindowTally reserved = tally.reserve(estimate);
            windows.put(reserved.key(), reserved);
            after.add(reserved);
        }
        String id = "local-" + (++nextId);
        inFlight.add(id);
        return new ReserveResult.Admitted(id, after);
    }

    @Override
    public CompletionStage<Void> settle(String reservationId, List<BudgetClaim> claims, BudgetAmount estimate,
                                        BudgetAmount used) {
        settleNow(reservationId, claims, estimate, used);
        return CompletableFuture.completedFuture(null);
    }

    /**
     * {@link #settle}, on the calling thread: a reservation this ledger does not hold (settled
     * before, or made elsewhere) only counts {@code used}, in the windows that have not ended.
     */
    public synchronized void settleNow(String reservationId, List<BudgetClaim> claims, BudgetAmount estimate,
                                       BudgetAmount used) {
        boolean held = inFlight.remove(reservationId);
        long now = clock.epochMillis();
        for (BudgetClaim claim : claims) {
            WindowTally tally = windows.get(claim.key());
            if (tally == null) {
                if (claim.endMillis() <= now || used.isZero()) {
                    continue; // the window is over: nothing to count against any more
                }
                tally = WindowTally.empty(claim);
            }
            windows.put(claim.key(), held ? tally.settle(estimate, used) : tally.spend(used));
        }
    }

    @Override
    public synchronized CompletionStage<List<WindowTally>> windows(long nowMillis) {
        List<WindowTally> open = windows.values().stream().filter(tally -> tally.endMillis() > nowMillis)
                .sorted(Comparator.comparing((WindowTally tally) -> tally.key().budget())
                        .thenComparing(tally -> tally.key().scopeValue()))
                .toList();
        return CompletableFuture.completedFuture(open);
    }

    @Override
    public synchronized CompletionStage<Boolean> reset(WindowKey key) {
        WindowTally tally = windows.get(key);
        if (tally != null) {
            windows.put(key, tally.reset());
        }
        return CompletableFuture.completedFuture(tally != null);
    }

    /** How many windows are kept now (ended ones included until the next clean-up). */
    public synchronized int size() {
        return windows.size();
    }

    /** Drops every window whose end has passed; called when the table is full. */
    private void forgetEnded() {
        long now = clock.epochMillis();
        windows.values().removeIf(tally -> tally.endMillis() <= now);
    }
}
