package io.agentfuse.core.budget;

import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LocalBudgetLedgerTest {

    private final ManualClock clock = new ManualClock();
    private final LocalBudgetLedger ledger = new LocalBudgetLedger(clock);
    private final BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));

    private BudgetClaim claim(String budget, String scope, long tokens) {
        long now = clock.epochMillis();
        return new BudgetClaim(new WindowKey(budget, scope, day.startOf(now)), BudgetLimit.ofTokens(tokens), day.endOf(now));
    }

    private WindowTally tally(BudgetClaim claim) {
        return ledger.windows(clock.epochMillis()).toCompletableFuture().join().stream()
                .filter(window -> window.key().equals(claim.key())).findFirst().orElseThrow();
    }

    @Test
    void aReservationOverSeveralBudgetsIsRefusedWholeWhenOneHasNothingLeft() {
        BudgetClaim tenant = claim("per-tenant", "team-a", 1_000);
        BudgetClaim session = claim("per-session", "s1", 100);
        ledger.reserveNow(List.of(session), BudgetAmount.ofTokens(100));

        ReserveResult result = ledger.reserveNow(List.of(tenant, session), BudgetAmount.ofTokens(50));

        assertThat(result).isInstanceOf(ReserveResult.Refused.class);
        assertThat(((ReserveResult.Refused) result).claim()).isEqualTo(1);
        assertThat(ledger.windows(clock.epochMillis()).toCompletableFuture().join())
                .noneMatch(window -> window.key().equals(tenant.key()) && !window.reserved().isZero());
    }

    @Test
    void settlingCountsWhatTheCallUsedInsteadOfItsEstimate() {
        BudgetClaim tenant = claim("per-tenant", "team-a", 1_000);
        var admitted = (ReserveResult.Admitted) ledger.reserveNow(List.of(tenant), BudgetAmount.ofTokens(600));

        ledger.settleNow(admitted.reservationId(), List.of(tenant), BudgetAmount.ofTokens(600), BudgetAmount.ofTokens(40));

        assertThat(tally(tenant).spent().tokens()).isEqualTo(40);
        assertThat(tally(tenant).reserved().tokens()).isZero();
    }

    @Test
    void aSecondSettleOfTheSameReservationDoesNotGiveTheEstimateBackTwice() {
        BudgetClaim tenant = claim("per-tenant", "team-a", 1_000);
        var first = (ReserveResult.Admitted) ledger.reserveNow(List.of(tenant), BudgetAmount.ofTokens(300));
        ledger.reserveNow(List.of(tenant), BudgetAmount.ofTokens(300));

        ledger.settleNow(first.reservationId(), List.of(tenant), BudgetAmount.ofTokens(300), BudgetAmount.ofTokens(10));
        ledger.settleNow(first.reservationId(), List.of(tenant), BudgetAmount.ofTokens(300), BudgetAmount.ZERO);

        assertThat(tally(tenant).reserved().tokens()).isEqualTo(300);
    }

    @Test
    void theNextWindowStartsWholeAtUtcMidnight() {
        clock.advance(Duration.ofHours(23));
        BudgetClaim today = claim("per-tenant", "team-a", 100);
        ledger.reserveNow(List.of(today), BudgetAmount.ofTokens(100));
        assertThat(ledger.reserveNow(List.of(today), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Refused.class);

        clock.advance(Duration.ofHours(1));
        BudgetClaim tomorrow = claim("per-tenant", "team-a", 100);

        assertThat(tomorrow.key().startMillis()).isEqualTo(today.endMillis());
        assertThat(ledger.reserveNow(List.of(tomorrow), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Admitted.class);
    }

    @Test
    void aCallThatStraddlesMidnightSettlesIntoTheWindowItReservedIn() {
        clock.advance(Duration.ofHours(23).plusMinutes(59));
        BudgetClaim today = claim("per-tenant", "team-a", 1_000);
        var admitted = (ReserveResult.Admitted) ledger.reserveNow(List.of(today), BudgetAmount.ofTokens(200));
        clock.advance(Duration.ofMinutes(2));

        ledger.settleNow(admitted.reservationId(), List.of(today), BudgetAmount.ofTokens(200), BudgetAmount.ofTokens(50));

        assertThat(ledger.windows(today.endMillis() - 1).toCompletableFuture().join())
                .singleElement().satisfies(window -> assertThat(window.spent().tokens()).isEqualTo(50));
        assertThat(ledger.windows(clock.epochMillis()).toCompletableFuture().join()).isEmpty();
    }

    private BudgetClaim named(String budget, String scope, long tokens) {
        long now = clock.epochMillis();
        return new BudgetClaim(new WindowKey(budget, scope, day.startOf(now)), BudgetLimit.ofTokens(tokens), day.endOf(now),
                true);
    }

    @Test
    void newWindowsNoCallerNamedBeyondTheBoundAreUnavailableUntilOldOnesEnd() {
        LocalBudgetLedger small = new LocalBudgetLedger(clock, 2);
        small.reserveNow(List.of(claim("per-key", "k1", 100)), BudgetAmount.ofTokens(1));
        small.reserveNow(List.of(claim("per-key", "k2", 100)), BudgetAmount.ofTokens(1));

        assertThat(small.reserveNow(List.of(claim("per-key", "k3", 100)), BudgetAmount.ofTokens(1)))
                .isInstanceOf(ReserveResult.Unavailable.class);
        assertThat(small.reserveNow(List.of(named("per-session", "s1", 100)), BudgetAmount.ofTokens(1)))
                .isInstanceOf(ReserveResult.Unavailable.class);
        assertThat(small.reserveNow(List.of(claim("per-key", "k1", 100)), BudgetAmount.ofTokens(1)))
                .isInstanceOf(ReserveResult.Admitted.class);

        clock.advance(Duration.ofDays(1));
        assertThat(small.reserveNow(List.of(claim("per-key", "k3", 100)), BudgetAmount.ofTokens(1)))
                .isInstanceOf(ReserveResult.Admitted.class);
        assertThat(small.size()).isEqualTo(1);
    }

    @Test
    void aFullLedgerForgetsTheLeastRecentlyUsedWindowOfAScopeACallerNamed() {
        // Given a ledger of three windows, full of sessions, s1 used again after s2 and s3
        LocalBudgetLedger small = new LocalBudgetLedger(clock, 3);
        small.reserveNow(List.of(named("per-session", "s1", 100)), BudgetAmount.ofTokens(10));
        small.reserveNow(List.of(named("per-session", "s2", 100)), BudgetAmount.ofTokens(20));
        small.reserveNow(List.of(named("per-session", "s3", 100)), BudgetAmount.ofTokens(30));
        small.reserveNow(List.of(named("per-session", "s1", 100)), BudgetAmount.ofTokens(10));

        // When a fourth session reserves
        ReserveResult fourth = small.reserveNow(List.of(named("per-session", "s4", 100)), BudgetAmount.ofTokens(40));

        // Then it is counted, in the place of s2, whose spending is forgotten as a fresh session id's would be
        assertThat(fourth).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(small.size()).isEqualTo(3);
        assertThat(small.windows(clock.epochMillis()).toCompletableFuture().join())
                .extracting(window -> window.key().scopeValue() + "=" + window.reserved().tokens())
                .containsExactlyInAnyOrder("s1=20", "s3=30", "s4=40");
    }

    @Test
    void aCallerInventingSessionsNeverLocksOutNorForgetsAWindowNoCallerChose() {
        LocalBudgetLedger small = new LocalBudgetLedger(clock, 4);
        BudgetClaim global = claim("everything", "global", 1_000_000);
        for (int i = 0; i < 1_000; i++) {
            ReserveResult result = small.reserveNow(List.of(global, named("per-session", "invented-" + i, 100)),
                    BudgetAmount.ofTokens(1));
            assertThat(result).as("session %d", i).isInstanceOf(ReserveResult.Admitted.class);
        }

        ReserveResult aKey = small.reserveNow(List.of(claim("per-key", "k1", 100)), BudgetAmount.ofTokens(1));

        assertThat(aKey).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(small.size()).isLessThanOrEqualTo(4);
        assertThat(small.windows(clock.epochMillis()).toCompletableFuture().join())
                .filteredOn(window -> window.key().equals(global.key()))
                .singleElement().extracting(window -> window.reserved().tokens()).isEqualTo(1_000L);
    }

    @Test
    void aResetWindowAdmitsAgainWhileItsCallsInFlightStillSettle() {
        BudgetClaim tenant = claim("per-tenant", "team-a", 100);
        var inFlight = (ReserveResult.Admitted) ledger.reserveNow(List.of(tenant), BudgetAmount.ofTokens(100));

        assertThat(ledger.reset(tenant.key()).toCompletableFuture().join()).isTrue();
        ledger.settleNow(inFlight.reservationId(), List.of(tenant), BudgetAmount.ofTokens(100), BudgetAmount.ofTokens(30));

        assertThat(tally(tenant).spent().tokens()).isEqualTo(30);
        assertThat(ledger.reserveNow(List.of(tenant), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Admitted.class);
    }

    @Test
    void aLimitChangedByAReloadAppliesToTheWindowAlreadyInUse() {
        BudgetClaim small = claim("per-tenant", "team-a", 100);
        ledger.reserveNow(List.of(small), BudgetAmount.ofTokens(100));
        BudgetClaim larger = claim("per-tenant", "team-a", 1_000);

        assertThat(ledger.reserveNow(List.of(larger), BudgetAmount.ofTokens(1))).isInstanceOf(ReserveResult.Admitted.class);
    }
}
