package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionBreakerOpenException;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.agent.permission.ToolApprover;
import io.agentfuse.agent.permission.ToolCall;
import io.agentfuse.agent.permission.Verdict;
import io.agentfuse.config.AgentfuseRuntime;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The permission breaker from {@code permissions:} as the approval hook of LangChain4j tools. */
class PermissionedToolExecutorTest {

    private static final String CONFIG = """
            permissions:
              maxConsecutiveDenials: 3
              maxTotalDenials: 20
              scope: category
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(CONFIG);
    private final List<String> ran = new ArrayList<>();
    private final List<String> asked = new ArrayList<>();
    private final Deque<Boolean> answers = new ArrayDeque<>();
    private final ToolExecutor tools = (request, memoryId) -> {
        ran.add(request.name());
        return "done: " + request.name();
    };
    private final ToolApprover user = (call, decision) -> {
        asked.add(call.name());
        return answers.removeFirst();
    };

    @AfterEach
    void stop() {
        models.close();
    }

    private static ToolExecutionRequest call(String tool) {
        return ToolExecutionRequest.builder().id("call-" + tool).name(tool).arguments("{}").build();
    }

    /** Every call asks, except {@code read_file}, which runs on its own while the breaker is closed. */
    private PermissionedToolExecutor hook(PermissionBreaker permissions) {
        return PermissionedToolExecutor.of(tools, permissions, user);
    }

    private PermissionBreaker permissions() {
        return runtime.permissionBreaker().autoApproveWhen(call -> call.name().equals("read_file")).build();
    }

    @Test
    void anAutoApprovedCallRunsWithoutAsking() {
        assertThat(hook(permissions()).execute(call("read_file"), "s")).isEqualTo("done: read_file");
        assertThat(asked).isEmpty();
    }

    @Test
    void aCallTheUserApprovesRuns() {
        answers.add(true);

        assertThat(hook(permissions()).execute(call("shell"), "s")).isEqualTo("done: shell");
        assertThat(asked).containsExactly("shell");
    }

    @Test
    void aCallTheUserDeniesIsNotRunAndTheModelIsToldWhy() {
        answers.add(false);

        JsonObject error = new JsonObject(hook(permissions()).execute(call("shell"), "s"));

        assertThat(ran).isEmpty();
        assertThat(error.getString("error")).isEqualTo("PERMISSION_DENIED");
        assertThat(error.getString("message")).isEqualTo("shell was not run: the user denied it");
    }

    @Test
    void afterThreeDenialsInARowTheToolIsBlockedWithoutAskingAndAutoModeEnds() {
        PermissionBreaker permissions = permissions();
        PermissionedToolExecutor hook = hook(permissions);
        answers.addAll(List.of(false, false, false));
        for (int i = 0; i < 3; i++) {
            hook.execute(call("shell"), "s");
        }
        assertThat(permissions.state()).isEqualTo(PermissionState.OPEN);

        String blocked = hook.execute(call("shell"), "s");

        assertThat(asked).as("the fourth call is denied without a prompt").hasSize(3);
        assertThat(ran).isEmpty();
        assertThat(new JsonObject(blocked).getString("error")).isEqualTo("PERMISSION_DENIED");
        assertThat(permissions.decide(ToolCall.of("read_file")).verdict())
                .as("what was auto-approved now asks").isEqualTo(Verdict.ASK);
    }

    @Test
    void anExplicitApprovalWhileOpenIsTheProbeThatRestoresAutoMode() {
        PermissionBreaker permissions = permissions();
        PermissionedToolExecutor hook = hook(permissions);
        answers.addAll(List.of(false, false, false, true, true));
        for (int i = 0; i < 3; i++) {
            hook.execute(call("shell"), "s");
        }

        assertThat(hook.execute(call("read_file"), "s")).as("asked, and the user says yes").isEqualTo("done: read_file");
        assertThat(permissions.state()).isEqualTo(PermissionState.HALF_OPEN);
        assertThat(hook.execute(call("edit_file"), "s")).isEqualTo("done: edit_file");

        assertThat(permissions.state()).isEqualTo(PermissionState.CLOSED);
        assertThat(hook.execute(call("read_file"), "s")).as("auto mode again").isEqualTo("done: read_file");
        assertThat(asked).containsExactly("shell", "shell", "shell", "read_file", "edit_file");
    }

    @Test
    void aDenialWithAContextIsAnErrorResult() {
        answers.add(false);

        var result = hook(permissions()).executeWithContext(call("shell"), InvocationContext.builder().chatMemoryId("s").build());

        assertThat(result.isError()).isTrue();
        assertThat(result.resultText()).contains("PERMISSION_DENIED");
    }

    @Test
    void headlessAndOpenTheSessionEndsWithAClearError() {
        AgentfuseRuntime headless = models.runtime(CONFIG + "  headless: true\n");
        PermissionBreaker permissions = headless.permissionBreaker().autoApproveWhen(call -> false).build();
        PermissionedToolExecutor hook = hook(permissions);
        answers.addAll(List.of(false, false, false));
        for (int i = 0; i < 3; i++) {
            hook.execute(call("shell"), "s");
        }

        assertThatThrownBy(() -> hook.execute(call("read_file"), "s")).isInstanceOf(PermissionBreakerOpenException.class);
        assertThat(ran).isEmpty();
    }
}
