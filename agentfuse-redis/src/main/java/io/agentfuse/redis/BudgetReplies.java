package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;

import java.util.ArrayList;
import java.util.List;

/**
 * What the budgets' scripts ({@link BudgetScripts}) answer, read back into tallies: numbers come as
 * integers or text, and a listed entry nobody of ours wrote is left out. Pure functions.
 */
final class BudgetReplies {

    private BudgetReplies() {
    }

    /**
     * The reply of {@link BudgetScripts#RESERVE} for {@code claims}, with the instances it counted. A
     * window whose spent does not read is unavailable, named with its mend: nobody knows what it
     * spent, so it neither admits (it could spend its limit again) nor counts as spent (a refusal
     * would say it was).
     */
    static Reply reserveReply(List<Object> reply, String id, List<BudgetClaim> claims) {
        long admitted = number(reply.get(0));
        if (admitted == BudgetScripts.UNREADABLE) {
            WindowKey window = claims.get((int) number(reply.get(1)) - 1).key();
            return new Reply(new ReserveResult.Unavailable("its window for '" + window.scopeValue() + "' holds a spent"
                    + " count in Redis that is not a number, so what it spent is unknown; it refuses until an operator"
                    + " resets the window (POST /admin/budgets/" + window.budget() + "/{scopeValue}/reset) or it ends"
                    + " (the gateway's log names the key)"), (int) number(reply.get(2)), window);
        }
        if (admitted == 0) {
            int claim = (int) number(reply.get(1)) - 1;
            BudgetClaim refused = claims.get(claim);
            WindowTally tally = new WindowTally(refused.key(), refused.limit(), refused.endMillis(),
                    new BudgetAmount(number(reply.get(2)), number(reply.get(3))),
                    new BudgetAmount(number(reply.get(4)), number(reply.get(5))));
            return new Reply(new ReserveResult.Refused(claim, tally), (int) number(reply.get(6)), null);
        }
        List<WindowTally> tallies = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            BudgetClaim claim = claims.get(i);
            int at = 2 + 4 * i;
            tallies.add(new WindowTally(claim.key(), claim.limit(), claim.endMillis(),
                    new BudgetAmount(number(reply.get(at)), number(reply.get(at + 1))),
                    new BudgetAmount(number(reply.get(at + 2)), number(reply.get(at + 3)))));
        }
        return new Reply(new ReserveResult.Admitted(id, tallies), (int) number(reply.get(1)), null);
    }

    /** What a reservation got, how many instances Redis counted, and the window whose spent did not read (else null). */
    record Reply(ReserveResult result, int instances, WindowKey unreadable) {
    }

    private static long number(Object value) {
        return value instanceof Long number ? number : Long.parseLong(String.valueOf(value));
    }

    /**
     * The windows of a {@link BudgetScripts#LIST} reply; an entry that is not one of {@link BudgetKeys#window}'s, or whose
     * numbers do not read, is left out (Redis holds what anyone may write).
     */
    static List<WindowTally> listed(String prefix, List<Object> reply) {
        List<WindowTally> windows = new ArrayList<>();
        for (int at = 0; at + BudgetScripts.LISTED_FIELDS <= reply.size(); at += BudgetScripts.LISTED_FIELDS) {
            WindowKey key = BudgetKeys.windowOf(prefix, String.valueOf(reply.get(at)));
            try {
                long lt = number(reply.get(at + 5));
                long lc = number(reply.get(at + 6));
                if (key == null || lt == BudgetLimit.NONE && lc == BudgetLimit.NONE) {
                    continue;
                }
                windows.add(new WindowTally(key, new BudgetLimit(lt, lc), number(reply.get(at + 7)),
                        new BudgetAmount(number(reply.get(at + 1)), number(reply.get(at + 2))),
                        new BudgetAmount(number(reply.get(at + 3)), number(reply.get(at + 4)))));
            } catch (IllegalArgumentException unreadable) {
                // not a window this code wrote: left out
            }
        }
        return windows;
    }
}
