package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.WindowKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Tells the operator that Redis refused one budget call ({@link RedisRefusal}): which call, on
 * which keys, in Redis's words, and what became of it. Redis still answers, so the ledger goes on
 * letting it decide; the call it refused is not repeated (it would be refused again). Each kind —
 * the call, the error code, the keys — is warned of once while it keeps happening
 * ({@link WarningLimit}). Thread-safe.
 */
final class BudgetRefusals {

    private static final Logger LOG = LoggerFactory.getLogger(BudgetRefusals.class);

    private final String prefix;
    private final WarningLimit limit = new WarningLimit();

    BudgetRefusals(String prefix) {
        this.prefix = prefix;
    }

    /** A settlement left out the windows of {@code claims}: their keys hold something other than a window. */
    void notWindows(List<BudgetClaim> claims) {
        if (!claims.isEmpty()) {
            refused("settlement", claims, "WRONGTYPE the key holds no hash", "it is not counted there, and is in its other windows");
        }
    }

    /**
     * A script found the fleet keys {@code keys} holding another type than the budgets write, and
     * replaced each with an empty one of its own: said once per key while it goes on.
     */
    void replaced(List<String> keys) {
        for (String key : keys) {
            if (limit.due("replaced " + key)) {
                LOG.warn("Redis held something the budgets did not write at {}, which every instance's budget calls use;"
                        + " it was replaced by an empty one, and what it held is rebuilt as calls go on (instances are seen"
                        + " again on their next call, windows listed again on their next reservation). Said once while it"
                        + " goes on", key);
            }
        }
    }

    /** A reservation found {@code window}'s spent unreadable: its reservations are refused; said once while it goes on. */
    void unreadable(WindowKey window) {
        String key = BudgetKeys.window(prefix, window);
        if (limit.due("unreadable " + key)) {
            LOG.warn("The budget window {} holds a spent count that is not a number: what it spent is unknown, so its"
                    + " reservations are refused (503 budget_unavailable) until its window is reset or the key deleted,"
                    + " or the window ends. Said once while it goes on", key);
        }
    }

    /**
     * Redis refused the {@code call} (reservation, settlement, heartbeat) on the windows of
     * {@code claims} with {@code refusal}; {@code outcome} says what became of it.
     */
    void refused(String call, List<BudgetClaim> claims, String refusal, String outcome) {
        String keys = claims.stream().map(claim -> BudgetKeys.window(prefix, claim.key())).collect(Collectors.joining(", "));
        if (limit.due(call + " " + RedisRefusal.code(refusal) + " " + keys)) {
            LOG.warn("Redis refused a budget {} on {} ({}): {}. Redis goes on deciding every other call; a key that holds"
                            + " what the budgets did not write mends when it is deleted or its window reset."
                            + " Said once while it goes on", call, keys.isEmpty() ? "its own keys" : keys, refusal, outcome);
        }
    }
}
