package io.agentfuse.gateway.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.BudgetConfig;
import org.junit.jupiter.api.Test;

/**
 * Which scope values a caller chose itself: the windows of those a full budget ledger may forget
 * for room ({@code BudgetClaim.callerNamed}), since the caller could as well have named fresh ones.
 */
class CallerTest {

    @Test
    void aSessionIsAlwaysTheCallersOwnChoice() {
        assertThat(new Caller(null, "team-a", "s1").named(BudgetConfig.Scope.SESSION)).isTrue();
        assertThat(new Caller("ci-bot", "team-a", "s1").named(BudgetConfig.Scope.SESSION)).isTrue();
    }

    @Test
    void aTenantIsTheCallersChoiceOnlyWhenNoClientKeyVouchesForIt() {
        assertThat(new Caller(null, "team-a", null).named(BudgetConfig.Scope.TENANT)).isTrue();
        assertThat(new Caller("ci-bot", "team-a", null).named(BudgetConfig.Scope.TENANT)).isFalse();
    }

    @Test
    void aKeyAndTheGlobalScopeAreNeverTheCallersChoice() {
        assertThat(new Caller("ci-bot", "team-a", "s1").named(BudgetConfig.Scope.KEY)).isFalse();
        assertThat(new Caller(null, null, null).named(BudgetConfig.Scope.GLOBAL)).isFalse();
    }
}
