package io.agentfuse.gateway.mcp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session-owner table is bounded, and one caller that opens sessions without end loses its
 * own oldest, never another caller's.
 */
class SessionOwnersTest {

    private final SessionOwners owners = new SessionOwners();

    @Test
    void aCallerThatOpensSessionsWithoutEndLosesItsOwnOldestNeverAnothers() {
        // Given a victim's session
        owners.claim("db", "victim-session", "credential:victim");

        // When another caller opens more sessions than the whole table holds
        for (int i = 0; i <= SessionOwners.MAX_SESSIONS; i++) {
            owners.claim("db", "attacker-" + i, "credential:attacker");
        }

        // Then the victim's session is still the victim's, and the attacker lost its own oldest
        assertThat(owners.owns("db", "victim-session", "credential:victim")).isTrue();
        assertThat(owners.owns("db", "attacker-0", "credential:attacker")).isFalse();
        assertThat(owners.owns("db", "attacker-" + SessionOwners.MAX_SESSIONS, "credential:attacker")).isTrue();
    }

    @Test
    void aFullTableMakesTheCallerHoldingTheMostLoseItsOldest() {
        owners.claim("db", "victim-session", "credential:victim");
        // Given a victim's session, and a table filled by twelve callers at their bound
        for (int caller = 0; caller < 12; caller++) {
            for (int i = 0; i < SessionOwners.MAX_SESSIONS / 10; i++) {
                owners.claim("db", caller + "-" + i, "credential:" + caller);
            }
        }
        // When a new caller opens a session
        owners.claim("db", "newcomer-session", "credential:newcomer");

        // Then a caller holding the most lost one of its own, not the victim
        assertThat(owners.owns("db", "victim-session", "credential:victim")).isTrue();
        assertThat(owners.owns("db", "newcomer-session", "credential:newcomer")).isTrue();
    }
}
