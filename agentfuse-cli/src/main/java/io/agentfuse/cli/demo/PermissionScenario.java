package io.agentfuse.cli.demo;

import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.ToolCall;
import io.agentfuse.agent.permission.Verdict;

/**
 * The first seed's permission breaker, in the agent's own process (it guards the user's "no",
 * not an HTTP call): three denials in a row switch to manual confirmation, an explicit approval
 * is the probe, and the next approval brings auto mode back.
 */
final class PermissionScenario implements Scenario {

    @Override
    public String name() {
        return "permissions";
    }

    @Override
    public String title() {
        return "3 denials → manual-confirm mode → an explicit approval → auto mode again";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) {
        var expect = new ScenarioResult.Expectations(timeline);
        // The agent's own policy: shell commands ask the user, everything else is approved automatically.
        PermissionBreaker permissions = PermissionBreaker.builder().config(PermissionConfig.defaults())
                .autoApproveWhen(call -> !call.name().equals("Bash")).build();
        String[] commands = {"rm -rf /", "git push --force", "git push"};
        for (String command : commands) {
            ToolCall call = new ToolCall("Bash", command);
            PermissionDecision decision = permissions.decide(call);
            timeline.agent("wants Bash(" + command + ") → " + decision.verdict() + "; the user says no");
            expect.expect(decision.verdict() == Verdict.ASK, "Bash asks before the breaker opens");
            permissions.recordDenied(call);
        }
        timeline.guard("permission breaker", permissions.state() + ": manual-confirm mode");
        expect.expect(permissions.state().name().equals("OPEN"), "3 denials open the permission breaker");

        PermissionDecision bash = permissions.decide(new ToolCall("Bash", "ls"));
        PermissionDecision edit = permissions.decide(new ToolCall("Edit", "README.md"));
        timeline.guard("permission breaker", "Bash(ls) → " + bash.verdict() + " without asking; Edit (auto-approved before) → "
                + edit.verdict());
        expect.expect(bash.verdict() == Verdict.DENY, "the tripped category is denied without asking");
        expect.expect(edit.verdict() == Verdict.ASK, "auto-approved tools now ask");

        ToolCall approved = new ToolCall("Bash", "ls");
        permissions.recordApproved(approved, true);
        timeline.agent("the user explicitly approves Bash(ls) → " + permissions.state());
        permissions.recordApproved(new ToolCall("Edit", "README.md"), true);
        PermissionDecision after = permissions.decide(new ToolCall("Edit", "README.md"));
        timeline.good("permission breaker", permissions.state() + ": Edit → " + after.verdict() + " (auto mode again)");
        expect.expect(permissions.state().name().equals("CLOSED"), "the user's approvals close the breaker");
        expect.expect(after.verdict() == Verdict.AUTO_APPROVE, "auto approval is back");
        return expect.result(name(), "3 denials → manual mode; explicit approvals → auto again");
    }
}
