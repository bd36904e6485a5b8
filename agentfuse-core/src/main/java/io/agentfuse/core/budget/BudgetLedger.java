package io.agentfuse.core.budget;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where budgets' windows are counted: this process's memory ({@link LocalBudgetLedger}), or a
 * store a fleet shares (Redis, in {@code agentfuse-redis}). Every ledger keeps the rules of
 * {@link WindowTally}; a reservation over several windows is atomic: reserved in all of them, or
 * in none.
 *
 * <p>Implementations are thread-safe and never block the caller: a shared ledger answers within a
 * short bounded wait, and then from what it knows locally.
 *
 * <pre>{@code
 * ReserveResult result = ledger.reserve(List.of(claim), estimate).toCompletableFuture().join();
 * if (result instanceof ReserveResult.Admitted admitted) {
 *     // ... the call ...
 *     ledger.settle(admitted.reservationId(), List.of(claim), estimate, used);
 * }
 * }</pre>
 */
public interface BudgetLedger extends AutoCloseable {

    /** Reserves {@code estimate} in every window of {@code claims}, or in none. */
    CompletionStage<ReserveResult> reserve(List<BudgetClaim> claims, BudgetAmount estimate);

    /**
     * Settles the reservation {@code reservationId} of {@code estimate} in the windows of
     * {@code claims} as {@code used}; a window that no longer holds the reservation (it ended,
     * or the reservation lapsed) just counts {@code used}.
     */
    CompletionStage<Void> settle(String reservationId, List<BudgetClaim> claims, BudgetAmount estimate,
                                 BudgetAmount used);

    /**
     * The windows in use that have not ended at {@code nowMillis}, each with the limit it was last
     * reserved under.
     */
    CompletionStage<List<WindowTally>> windows(long nowMillis);

    /** Forgets what the window {@code key} has spent; calls in flight keep their reservations. */
    CompletionStage<Boolean> reset(WindowKey key);

    /** Releases what the ledger holds (connections, threads); by default nothing. */
    @Override
    default void close() {
    }
}
