package io.agentfuse.redis;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules a budget follows on one instance while the fleet's Redis is away. */
class BudgetLossTest {

    private final ManualClock clock = new ManualClock(0);
    private final BudgetClaim claim = new BudgetClaim(new WindowKey("per-tenant", "team-a", 0),
            BudgetLimit.ofTokens(9_000), 86_400_000);

    private static WindowTally heard(BudgetClaim claim, long spent) {
        return WindowTally.empty(claim).spend(BudgetAmount.ofTokens(spent));
    }

    /** Tokens admitted by reserving 100 at a time (each used in full) until refused. */
    private static long spendAll(BudgetLoss loss, BudgetClaim claim) {
        long admitted = 0;
        while (loss.reserve(List.of(claim), BudgetAmount.ofTokens(100)) instanceof ReserveResult.Admitted reserved) {
            loss.settleAlone(reserved.reservationId(), List.of(claim), BudgetAmount.ofTokens(100), BudgetAmount.ofTokens(100));
            admitted += 100;
        }
        return admitted;
    }

    @Test
    void beyondItsBoundItForgetsTheWindowLeastRecentlyHeardOfNotTheNewOnes() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.SHARE, clock);
        loss.heard(List.of(heard(claim, 3_000)), 3);
        BudgetClaim first = session("s-0");
        loss.heard(List.of(heard(first, 1)), 3);
        for (int i = 1; i < BudgetLoss.MAX_WINDOWS; i++) {
            if (i == BudgetLoss.MAX_WINDOWS / 2) {
                loss.heard(List.of(heard(claim, 3_000)), 3); // the tenant's window is heard of again
            }
            loss.heard(List.of(heard(session("s-" + i), 1)), 3);
        }

        BudgetClaim newest = session("s-new");
        loss.heard(List.of(heard(newest, 7)), 3);

        assertThat(loss.lastHeard(first.key())).isEmpty();
        assertThat(loss.lastHeard(newest.key())).map(WindowTally::spent).contains(BudgetAmount.ofTokens(7));
        assertThat(loss.lastHeard(claim.key())).map(WindowTally::spent).contains(BudgetAmount.ofTokens(3_000));
    }

    private static BudgetClaim session(String id) {
        return new BudgetClaim(new WindowKey("per-session", id, 0), BudgetLimit.ofTokens(1_000), 86_400_000, true);
    }

    @Test
    void shareSpendsWhatWasLeftDividedByTheInstancesSeen() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.SHARE, clock);
        loss.heard(List.of(heard(claim, 3_000)), 3);
        loss.lost();

        assertThat(spendAll(loss, claim)).isEqualTo(2_000); // (9 000 - 3 000) / 3
    }

    @Test
    void aWindowNotHeardOfYetSharesItsWholeLimit() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.SHARE, clock);
        loss.heard(3);
        loss.lost();

        assertThat(spendAll(loss, claim)).isEqualTo(3_000);
    }

    @Test
    void shareAdmitsNothingBeforeItKnowsHowManyShare() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.SHARE, clock);

        assertThat(loss.reserve(List.of(claim), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Unavailable.class);
    }

    @Test
    void openSpendsAllThatWasLeftAndClosedNothing() {
        BudgetLoss open = new BudgetLoss(BudgetOnLoss.OPEN, clock);
        open.heard(List.of(heard(claim, 3_000)), 3);
        BudgetLoss closed = new BudgetLoss(BudgetOnLoss.CLOSED, clock);
        closed.heard(List.of(heard(claim, 3_000)), 3);

        assertThat(spendAll(open, claim)).isEqualTo(6_000);
        assertThat(closed.reserve(List.of(claim), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Unavailable.class);
    }

    @Test
    void aWindowSpentWhenRedisLastAnsweredAdmitsNothingWhateverTheRule() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.OPEN, clock);
        loss.heard(List.of(heard(claim, 9_000)), 1);

        assertThat(loss.reserve(List.of(claim), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Refused.class);
    }

    @Test
    void whatWasSpentAloneIsOwedToRedisSummedPerWindowAndThenRedisDecidesAgain() {
        BudgetLoss loss = new BudgetLoss(BudgetOnLoss.SHARE, clock);
        loss.heard(1);
        loss.lost();
        spendAll(loss, claim);
        assertThat(loss.oweIfAway("redis-reservation", List.of(claim), BudgetAmount.ofTokens(40))).isTrue();

        List<BudgetLoss.Owed> due = loss.takeOwedOrReturn();

        assertThat(due).extracting(BudgetLoss.Owed::used)
                .containsExactly(BudgetAmount.ofTokens(40), BudgetAmount.ofTokens(9_000));
        assertThat(loss.away()).isTrue();
        assertThat(loss.takeOwedOrReturn()).isEmpty();
        assertThat(loss.away()).isFalse();
        assertThat(loss.oweIfAway("later", List.of(claim), BudgetAmount.ofTokens(1))).isFalse();
    }
}
