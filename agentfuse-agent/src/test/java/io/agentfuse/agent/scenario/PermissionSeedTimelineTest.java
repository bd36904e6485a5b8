package io.agentfuse.agent.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionBreakerOpenException;
import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.agent.permission.ToolCall;
import io.agentfuse.agent.permission.ToolCategorizer;
import io.agentfuse.agent.permission.Verdict;
import io.agentfuse.core.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The seed's denial-tracking timeline, end to end. */
class PermissionSeedTimelineTest {

    // The seed's tools: every shell tool is one category, every file edit another.
    private static final ToolCategorizer SHELL_OR_EDIT = call -> call.name().startsWith("Bash") ? "Bash" : "Edit";

    private final ManualClock clock = new ManualClock();
    private final PermissionBreaker breaker = PermissionBreaker.builder()
            .categorizer(SHELL_OR_EDIT)
            .clock(clock)
            .build();

    @Test
    void threeDenialsSwitchToManualModeAndAnExplicitApprovalRestoresAutoMode() {
        // Given the user refuses three shell commands in a row
        breaker.recordDenied(new ToolCall("Bash", "rm -rf /"));
        breaker.recordDenied(new ToolCall("Bash", "git push"));
        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
        breaker.recordDenied(new ToolCall("BashTool", "git push --force"));

        // Then shell commands are refused without asking, and edits that ran on their own now ask
        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(breaker.decide(new ToolCall("Bash", "ls")).verdict()).isEqualTo(Verdict.DENY);
        assertThat(breaker.decide(new ToolCall("FileEditTool", "README.md")).verdict()).isEqualTo(Verdict.ASK);

        // When the user explicitly allows one shell command
        breaker.recordApproved(new ToolCall("Bash", "ls"), true);

        // Then auto mode is back on trial, and the next call that goes through unopposed closes the breaker
        assertThat(breaker.state()).isEqualTo(PermissionState.HALF_OPEN);
        assertThat(breaker.decide(new ToolCall("FileEditTool", "README.md")).verdict()).isEqualTo(Verdict.AUTO_APPROVE);
        breaker.recordApproved(new ToolCall("FileEditTool", "README.md"), false);
        assertThat(breaker.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(breaker.decide(new ToolCall("Bash", "ls")).verdict()).isEqualTo(Verdict.AUTO_APPROVE);
    }

    @Test
    void denyingAgainDuringTheTrialKeepsManualMode() {
        // Given manual mode after three denials, and an explicit approval that started a trial
        tripOnShellCommands();
        breaker.recordApproved(new ToolCall("Bash", "ls"), true);

        // When the user denies the next call
        breaker.recordDenied(new ToolCall("FileEditTool", "pom.xml"));

        // Then manual mode is back at once, with the shell still blocked
        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        PermissionDecision shell = breaker.decide(new ToolCall("Bash", "ls"));
        assertThat(shell.verdict()).isEqualTo(Verdict.DENY);
        assertThat(shell.reason()).contains("opened after a denial of Edit during the trial of auto mode");
        assertThat(breaker.decide(new ToolCall("FileEditTool", "pom.xml")).verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void denyingAgainInManualModeStaysInManualMode() {
        // Given manual mode after three denials
        tripOnShellCommands();

        // When the user keeps refusing the prompts
        breaker.recordDenied(new ToolCall("FileEditTool", "pom.xml"));
        clock.advance(Duration.ofHours(1));

        // Then nothing re-enables auto mode on its own
        assertThat(breaker.state()).isEqualTo(PermissionState.OPEN);
        assertThat(breaker.decide(new ToolCall("FileEditTool", "pom.xml")).verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void headlessSessionAbortsOnceTheBreakerOpens() {
        // Given a session nobody watches
        PermissionBreaker headless = PermissionBreaker.builder()
                .config(PermissionConfig.builder().headless(true).build())
                .clock(clock)
                .build();

        // When three shell commands are denied
        for (int i = 0; i < 3; i++) {
            headless.recordDenied(new ToolCall("Bash", "rm -rf /"));
        }

        // Then any further decision aborts the session with a clear error
        assertThatThrownBy(() -> headless.decide(ToolCall.of("Read")))
                .isInstanceOf(PermissionBreakerOpenException.class)
                .hasMessageContaining("3 consecutive denials of Bash")
                .hasMessageContaining("headless");
    }

    private void tripOnShellCommands() {
        for (String command : new String[] {"rm -rf /", "git push", "git push --force"}) {
            breaker.recordDenied(new ToolCall("Bash", command));
        }
    }
}
