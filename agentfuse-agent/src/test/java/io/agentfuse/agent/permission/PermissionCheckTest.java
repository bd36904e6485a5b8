package io.agentfuse.agent.permission;

import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The permission protocol in one call: decide, ask when the verdict says so, report the answer. */
class PermissionCheckTest {

    private static final ToolCall BASH = new ToolCall("Bash", "git push");
    private static final ToolCall READ = new ToolCall("Read", "README.md");

    private final List<String> asked = new ArrayList<>();
    private final Deque<Boolean> answers = new ArrayDeque<>();
    private final ToolApprover user = (call, decision) -> {
        asked.add(call.name());
        return answers.removeFirst();
    };

    /** Reads run on their own; everything else asks. */
    private static PermissionBreaker breaker(PermissionConfig config) {
        return PermissionBreaker.builder().config(config).clock(new ManualClock())
                .autoApproveWhen(call -> call.name().equals("Read")).build();
    }

    @Test
    void anAutoApprovedCallIsGrantedWithoutAsking() {
        PermissionCheck check = breaker(PermissionConfig.defaults()).check(READ, user);

        assertThat(check.granted()).isTrue();
        assertThat(check.decision().verdict()).isEqualTo(Verdict.AUTO_APPROVE);
        assertThat(asked).isEmpty();
    }

    @Test
    void theUsersYesGrantsTheCall() {
        answers.add(true);

        PermissionCheck check = breaker(PermissionConfig.defaults()).check(BASH, user);

        assertThat(check.granted()).isTrue();
        assertThat(check.refusal()).isEmpty();
        assertThat(asked).containsExactly("Bash");
    }

    @Test
    void theUsersNoRefusesTheCallAndCountsAsADenial() {
        PermissionBreaker breaker = breaker(PermissionConfig.defaults());
        for (int i = 0; i < 3; i++) {
            answers.add(false);
            PermissionCheck check = breaker.check(BASH, user);
            assertThat(check.granted()).isFalse();
            assertThat(check.refusal()).isEqualTo(PermissionCheck.USER_DENIED);
        }

        assertThat(breaker.state()).as("three denials in a row").isEqualTo(PermissionState.OPEN);
    }

    @Test
    void aBlockedCategoryIsRefusedWithTheBreakersReasonWithoutAsking() {
        PermissionBreaker breaker = breaker(PermissionConfig.defaults());
        for (int i = 0; i < 3; i++) {
            breaker.recordDenied(BASH);
        }

        PermissionCheck check = breaker.check(BASH, user);

        assertThat(check.granted()).isFalse();
        assertThat(check.decision().verdict()).isEqualTo(Verdict.DENY);
        assertThat(check.refusal()).isEqualTo(check.decision().reason()).isNotBlank();
        assertThat(asked).isEmpty();
    }

    @Test
    void anExplicitYesWhileOpenIsTheProbeAndASecondApprovalClosesTheBreaker() {
        PermissionBreaker breaker = breaker(PermissionConfig.defaults());
        for (int i = 0; i < 3; i++) {
            breaker.recordDenied(BASH);
        }
        answers.add(true);

        assertThat(breaker.check(READ, user).granted()).as("open: even reads ask").isTrue();
        assertThat(asked).containsExactly("Read");
        assertThat(breaker.state()).isEqualTo(PermissionState.HALF_OPEN);

        assertThat(breaker.check(READ, user).granted()).as("half open: decides as closed").isTrue();
        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
    }

    @Test
    void headlessAndOpenThereIsNobodyToAsk() {
        PermissionBreaker breaker = breaker(PermissionConfig.builder().headless(true).build());
        for (int i = 0; i < 3; i++) {
            breaker.recordDenied(BASH);
        }

        assertThatThrownBy(() -> breaker.check(READ, user)).isInstanceOf(PermissionBreakerOpenException.class);
        assertThat(asked).isEmpty();
    }
}
