package io.agentfuse.springai;

import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionBreakerOpenException;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real Spring AI function tool behind the session's permission breaker. */
class PermissionToolCallbackTest {

    record Command(String line) {
    }

    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger asked = new AtomicInteger();

    private static PermissionBreaker.Builder permissions(String yaml) {
        AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse(yaml, "permissions.yaml", Map.of()))
                .manualClock(new ManualClock()).build();
        return runtime.permissionBreaker();
    }

    private ToolCallback bash(PermissionBreaker permissions, boolean userSaysYes) {
        Function<Command, String> bash = command -> {
            runs.incrementAndGet();
            return "ran " + command.line();
        };
        return PermissionToolCallback.of(permissions, (call, decision) -> {
            asked.incrementAndGet();
            return userSaysYes;
        }, FunctionToolCallback.builder("Bash", bash).inputType(Command.class).build());
    }

    @Test
    void anAutoApprovedCallRunsWithoutAsking() {
        ToolCallback tool = bash(permissions("{}").build(), false);

        assertThat(tool.call("{\"line\":\"ls\"}")).contains("ran ls");
        assertThat(asked).hasValue(0);
    }

    @Test
    void theUsersYesRunsTheCall() {
        ToolCallback tool = bash(permissions("{}").autoApproveWhen(call -> false).build(), true);

        assertThat(tool.call("{\"line\":\"ls\"}")).contains("ran ls");
        assertThat(asked).hasValue(1);
    }

    @Test
    void threeDenialsInARowStopAskingAndRefuseTheCategory() {
        PermissionBreaker permissions = permissions("{}").autoApproveWhen(call -> false).build();
        ToolCallback tool = bash(permissions, false);
        for (int i = 0; i < 3; i++) {
            assertThat(tool.call("{\"line\":\"rm -rf /\"}")).isEqualTo("PERMISSION_DENIED: Bash was not run: the user denied it");
        }

        String answer = tool.call("{\"line\":\"rm -rf /\"}");

        assertThat(answer).startsWith("PERMISSION_DENIED: ");
        assertThat(asked).hasValue(3);
        assertThat(runs).hasValue(0);
        assertThat(permissions.state()).isEqualTo(PermissionState.OPEN);
    }

    @Test
    void headlessSessionsEndWithAClearErrorOnceTheBreakerIsOpen() {
        PermissionBreaker permissions = permissions("permissions: { headless: true }").autoApproveWhen(call -> false).build();
        ToolCallback tool = bash(permissions, false);
        for (int i = 0; i < 3; i++) {
            tool.call("{\"line\":\"rm -rf /\"}");
        }

        assertThatThrownBy(() -> tool.call("{\"line\":\"rm -rf /\"}")).isInstanceOf(PermissionBreakerOpenException.class);
        assertThat(runs).hasValue(0);
    }
}
