package io.agentfuse.agent.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class PermissionBreakerTest {

    private static final ToolCall BASH = new ToolCall("Bash", "git push");
    private static final ToolCall EDIT = new ToolCall("Edit", "src/Main.java");
    private static final ToolCall READ = new ToolCall("Read", "README.md");

    private final ManualClock clock = new ManualClock();
    private final List<PermissionEvent> events = new CopyOnWriteArrayList<>();

    private PermissionBreaker breaker(PermissionConfig config) {
        PermissionBreaker breaker = PermissionBreaker.builder().config(config).clock(clock).build();
        breaker.addListener(events::add);
        return breaker;
    }

    private PermissionBreaker breaker() {
        return breaker(PermissionConfig.defaults());
    }

    private static void deny(PermissionBreaker breaker, ToolCall call, int times) {
        for (int i = 0; i < times; i++) {
            breaker.recordDenied(call);
        }
    }

    @Test
    void autoApprovesEveryCallWhileClosedByDefault() {
        PermissionBreaker breaker = breaker();

        PermissionDecision decision = breaker.decide(BASH);

        assertThat(decision.verdict()).isEqualTo(Verdict.AUTO_APPROVE);
        assertThat(decision.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(decision.category()).isEqualTo("Bash");
    }

    @Test
    void asksForCallsThePolicyDoesNotAutoApproveWhileClosed() {
        PermissionBreaker breaker = PermissionBreaker.builder()
                .autoApproveWhen(call -> !call.name().equals("Bash"))
                .clock(clock)
                .build();

        assertThat(breaker.decide(BASH).verdict()).isEqualTo(Verdict.ASK);
        assertThat(breaker.decide(READ).verdict()).isEqualTo(Verdict.AUTO_APPROVE);
    }

    @Test
    void anApprovalEndsTheStreakSoTwoDenialsAndAnApprovalDoNotOpen() {
        PermissionBreaker breaker = breaker();

        deny(breaker, BASH, 2);
        breaker.recordApproved(BASH, false);
        deny(breaker, BASH, 2);

        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(breaker.snapshot().consecutiveDenials()).containsEntry("Bash", 2);
    }

    @Test
    void opensAfterThreeConsecutiveDenialsAndReportsWhy() {
        PermissionBreaker breaker = breaker();

        deny(breaker, BASH, 3);

        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.from()).isEqualTo(PermissionState.CLOSED);
            assertThat(event.to()).isEqualTo(PermissionState.OPEN);
            assertThat(event.category()).isEqualTo("Bash");
            assertThat(event.reason()).isEqualTo("3 consecutive denials of Bash");
            assertThat(event.consecutiveDenials()).isEqualTo(3);
            assertThat(event.totalDenials()).isEqualTo(3);
            assertThat(event.epochMillis()).isEqualTo(ManualClock.DEFAULT_EPOCH_MILLIS);
        });
    }

    @Test
    void deniesTheTrippedCategoryWithAReasonThatSaysHowToReEnableIt() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        PermissionDecision decision = breaker.decide(new ToolCall("Bash", "ls"));

        assertThat(decision.verdict()).isEqualTo(Verdict.DENY);
        assertThat(decision.reason())
                .contains("3 consecutive denials of Bash")
                .contains("Approve one call explicitly to re-enable");
    }

    @Test
    void asksForEveryOtherCallWhenOpenEvenThoseThePolicyAutoApproves() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        PermissionDecision decision = breaker.decide(READ);

        assertThat(decision.verdict()).isEqualTo(Verdict.ASK);
        assertThat(decision.reason()).startsWith("manual-confirm mode");
    }

    @Test
    void opensWhenTheSessionReachesTheTotalDenialLimitWithoutAStreak() {
        PermissionBreaker breaker = breaker();
        // Two denials and an approval, repeated: never three in a row.
        for (int round = 0; round < 9; round++) {
            deny(breaker, BASH, 2);
            breaker.recordApproved(BASH, false);
        }
        breaker.recordDenied(BASH);
        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);

        breaker.recordDenied(BASH);

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(events).last().extracting(PermissionEvent::reason).isEqualTo("20 denials in this session");
    }

    @Test
    void categoryScopeCountsAStreakPerCategory() {
        PermissionBreaker breaker = breaker();

        breaker.recordDenied(BASH);
        breaker.recordDenied(EDIT);
        breaker.recordApproved(READ, false);
        breaker.recordDenied(BASH);
        breaker.recordDenied(EDIT);
        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
        breaker.recordDenied(BASH);

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(breaker.decide(BASH).verdict()).isEqualTo(Verdict.DENY);
        assertThat(breaker.decide(EDIT).verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void globalScopeOpensOnThreeDenialsOfDifferentTools() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().scope(PermissionScope.GLOBAL).build());

        breaker.recordDenied(BASH);
        breaker.recordDenied(EDIT);
        breaker.recordDenied(READ);

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(events).last().extracting(PermissionEvent::reason).isEqualTo("3 consecutive denials");
    }

    @Test
    void globalScopeAsksForEveryCallWhenOpenAndDeniesNothingUnasked() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().scope(PermissionScope.GLOBAL).build());
        deny(breaker, BASH, 3);

        assertThat(List.of(BASH, EDIT, READ)).allSatisfy(call ->
                assertThat(breaker.decide(call).verdict()).isEqualTo(Verdict.ASK));
    }

    @Test
    void globalScopeLetsAnApprovalOfAnyToolEndTheStreak() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().scope(PermissionScope.GLOBAL).build());

        deny(breaker, BASH, 2);
        breaker.recordApproved(READ, false);
        breaker.recordDenied(BASH);

        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
    }

    @Test
    void blocksASecondCategoryWhoseStreakReachesTheLimitWhileOpen() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        deny(breaker, EDIT, 3);

        assertThat(breaker.decide(EDIT).verdict()).isEqualTo(Verdict.DENY);
        assertThat(breaker.snapshot().blockedCategories()).containsExactly("Bash", "Edit");
        assertThat(events).last().satisfies(event -> {
            assertThat(event.from()).isEqualTo(PermissionState.OPEN);
            assertThat(event.to()).isEqualTo(PermissionState.OPEN);
            assertThat(event.category()).isEqualTo("Edit");
        });
    }

    @Test
    void anApprovalThatIsNotExplicitDoesNotStartTheTrial() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        breaker.recordApproved(READ, false);

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
    }

    @Test
    void closingAfterTheTrialClearsEveryCount() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);
        breaker.recordApproved(BASH, true);

        breaker.recordApproved(READ, false);

        PermissionSnapshot snapshot = breaker.snapshot();
        assertThat(snapshot.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(snapshot.totalDenials()).isZero();
        assertThat(snapshot.consecutiveDenials()).isEmpty();
        assertThat(snapshot.blockedCategories()).isEmpty();
        assertThat(events).extracting(PermissionEvent::to)
                .containsExactly(PermissionState.OPEN, PermissionState.HALF_OPEN, PermissionState.CLOSED);
    }

    @Test
    void staysOpenForeverWithoutTimedHalfOpen() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        clock.advance(Duration.ofDays(1));

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
    }

    @Test
    void timedHalfOpenRetriesAutoModeAfterTheConfiguredDelay() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().halfOpenAfter(Duration.ofMinutes(5)).build());
        deny(breaker, BASH, 3);

        clock.advance(Duration.ofMinutes(5).minusMillis(1));
        assertThat(breaker.decide(BASH).verdict()).isEqualTo(Verdict.DENY);
        clock.advanceMillis(1);

        assertThat(breaker.decide(BASH).verdict()).isEqualTo(Verdict.AUTO_APPROVE);
        assertThat(events).last().satisfies(event -> {
            assertThat(event.to()).isEqualTo(PermissionState.HALF_OPEN);
            assertThat(event.reason()).isEqualTo("halfOpenAfter PT5M elapsed");
        });
    }

    @Test
    void headlessSessionDecidesNormallyWhileClosed() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().headless(true).build());
        deny(breaker, BASH, 2);

        assertThat(breaker.decide(BASH).verdict()).isEqualTo(Verdict.AUTO_APPROVE);
    }

    @Test
    void headlessSessionAbortsWithTheCategoryAndReason() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().headless(true).build());
        deny(breaker, BASH, 3);

        assertThatThrownBy(() -> breaker.decide(READ))
                .isInstanceOfSatisfying(PermissionBreakerOpenException.class,
                        aborted -> assertThat(aborted.category()).isEqualTo("Read"))
                .hasMessageContaining("no user to confirm Read in headless mode");
    }

    @Test
    void resetClosesAndClearsEveryCount() {
        PermissionBreaker breaker = breaker();
        deny(breaker, BASH, 3);

        breaker.reset();

        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(breaker.snapshot().totalDenials()).isZero();
        assertThat(events).last().extracting(PermissionEvent::reason).isEqualTo("reset");
    }

    @Test
    void aListenerThatThrowsDoesNotBreakTheSession() {
        PermissionBreaker breaker = breaker();
        breaker.addListener(event -> {
            throw new IllegalStateException("listener bug");
        });

        deny(breaker, BASH, 3);

        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(events).hasSize(1);
    }

    @Test
    void rejectsACategorizerThatGivesNoCategory() {
        PermissionBreaker breaker = PermissionBreaker.builder().categorizer(call -> " ").build();

        assertThatThrownBy(() -> breaker.decide(BASH))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the categorizer gave no category for Bash");
    }
}
