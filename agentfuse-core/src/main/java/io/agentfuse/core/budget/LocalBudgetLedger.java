package io.agentfuse.core.budget;

import io.agentfuse.core.Clock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

/**
 * A ledger in this process's memory: the budgets of one instance, or of a library user. Answers at
 * once (its stages are complete when returned). A window is forgotten when it ends; at most
 * {@code maxWindows} windows are kept. A reservation that needs more room first forgets the windows
 * that ended, then windows whose scope value a caller named itself ({@link BudgetClaim#callerNamed}:
 * session ids, tenants no key vouches for), the least recently used first: what such a window
 * spent is lost, as it would be had its caller named a fresh one. So a caller inventing ever new
 * session ids can neither grow the ledger without bound nor lock every other caller's new windows
 * out. Only a reservation that still finds no room is {@link ReserveResult.Unavailable}.
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
    /** Windows whose scope value no caller chose (global, a key, a key's tenant): kept until they end. */
    private final Map<WindowKey, WindowTally> windows = new HashMap<>();
    /** Windows of scope values callers named, least recently used first: forgotten first for room. */
    private final Map<WindowKey, WindowTally> named = new LinkedHashMap<>(16, 0.75f, true);
    private final Set<String> inFlight = new HashSet<>();
    /** No window kept ends before this: a full ledger looks for ended windows only from then on. */
    private long earliestEnd = Long.MAX_VALUE;
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
            WindowTally tally = find(claim.key());
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
        if (added > 0 && size() + added > maxWindows) {
            forgetEnded();
            forgetNamed(size() + added - maxWindows, claims);
            if (size() + added > maxWindows) {
                return new ReserveResult.Unavailable("the budgets count " + size()
                        + " windows already, as many as they may, none of a scope a caller named");
            }
        }
        List<WindowTally> after = new ArrayList<>(current.size());
        for (int i = 0; i < current.size(); i++) {
            WindowTally reserved = current.get(i).reserve(estimate);
            store(claims.get(i), reserved);
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
            WindowTally tally = find(claim.key());
            if (tally == null) {
                if (claim.endMillis() <= now || used.isZero()) {
                    continue; // the window is over (or was forgotten for room): nothing to count against any more
                }
                tally = WindowTally.empty(claim);
            }
            store(claim, held ? tally.settle(estimate, used) : tally.spend(used));
        }
    }

    @Override
    public synchronized CompletionStage<List<WindowTally>> windows(long nowMillis) {
        List<WindowTally> open = Stream.concat(windows.values().stream(), named.values().stream())
                .filter(tally -> tally.endMillis() > nowMillis)
                .sorted(Comparator.comparing((WindowTally tally) -> tally.key().budget())
                        .thenComparing(tally -> tally.key().scopeValue()))
                .toList();
        return CompletableFuture.completedFuture(open);
    }

    @Override
    public synchronized CompletionStage<Boolean> reset(WindowKey key) {
        Map<WindowKey, WindowTally> table = windows.containsKey(key) ? windows : named;
        WindowTally tally = table.get(key);
        if (tally != null) {
            table.put(key, tally.reset());
        }
        return CompletableFuture.completedFuture(tally != null);
    }

    /** How many windows are kept now (ended ones included until the next clean-up). */
    public synchronized int size() {
        return windows.size() + named.size();
    }

    private WindowTally find(WindowKey key) {
        WindowTally tally = windows.get(key);
        return tally != null ? tally : named.get(key);
    }

    /** Keeps {@code tally} in the table of its claim (a configuration reload may have moved a scope from one to the other). */
    private void store(BudgetClaim claim, WindowTally tally) {
        (claim.callerNamed() ? windows : named).remove(claim.key());
        (claim.callerNamed() ? named : windows).put(claim.key(), tally);
        earliestEnd = Math.min(earliestEnd, tally.endMillis());
    }

    /** Drops every window whose end has passed; called when the table is full, it looks only when one may have. */
    private void forgetEnded() {
        long now = clock.epochMillis();
        if (now < earliestEnd) {
            return;
        }
        windows.values().removeIf(tally -> tally.endMillis() <= now);
        named.values().removeIf(tally -> tally.endMillis() <= now);
        earliestEnd = Stream.concat(windows.values().stream(), named.values().stream())
                .mapToLong(WindowTally::endMillis).min().orElse(Long.MAX_VALUE);
    }

    /** Forgets up to {@code excess} windows of caller-named scopes, the least recently used first, but none of {@code claims}. */
    private void forgetNamed(int excess, List<BudgetClaim> claims) {
        Iterator<WindowKey> eldest = named.keySet().iterator();
        while (excess > 0 && eldest.hasNext()) {
            WindowKey key = eldest.next();
            if (claims.stream().noneMatch(claim -> claim.key().equals(key))) {
                eldest.remove();
                excess--;
            }
        }
    }
}
