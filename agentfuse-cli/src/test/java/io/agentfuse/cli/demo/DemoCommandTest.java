package io.agentfuse.cli.demo;

import io.agentfuse.cli.AgentfuseCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo end to end, in-process: a real mock provider and a real gateway on loopback, every
 * scenario checking what the guards did. Run fast ({@code --speed 1000}) so that the open times
 * pass in a fraction of a second; nothing here asserts how long anything took.
 */
class DemoCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = AgentfuseCommand.commandLine(Map.of());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void everyScenarioPlaysToTheEndAsExpected() {
        int exit = run("demo", "--speed", "1000", "--no-color");

        assertThat(exit).as(out + "\n" + err).isZero();
        assertThat(out.toString())
                .contains("storm          ok")
                .contains("rate-limit     ok")
                .contains("token-overuse  ok")
                .contains("context        ok")
                .contains("permissions    ok")
                .contains("mcp            ok")
                .contains("budget         ok")
                .contains("OPEN: consecutive5xx: 4 in a row")
                .contains("x-agentfuse-context: AUTO_COMPACT, x-agentfuse-compaction: action=SNIP; summary=FAILED")
                .contains("413 context_window_full")
                .doesNotContain("\u001B[");
    }

    @Test
    void theMcpScenarioPlaysTheSeedsOutageThroughTheProxy() {
        int exit = run("demo", "--scenario", "mcp", "--speed", "1000", "--no-color");

        assertThat(exit).as(out + "\n" + err).isZero();
        assertThat(out.toString())
                .contains("mcp            ok")
                .contains("3rd failure in a row → OPEN")
                .contains("the server was not called: \"CIRCUIT_OPEN: query is unavailable, retry after")
                .contains("one probe let through → HTTP 500 → OPEN")
                .contains("→ CLOSED");
    }

    @Test
    void theBudgetScenarioSwitchesTheSessionToTheCheaperModelThenRefusesIt() {
        int exit = run("demo", "--scenario", "budget", "--speed", "1000", "--no-color");

        assertThat(exit).as(out + "\n" + err).isZero();
        assertThat(out.toString())
                .contains("budget         ok")
                .contains("x-agentfuse-fallbacks: planner=budget_exceeded")
                .contains("429 budget_exceeded (code insufficient_quota, x-should-retry: false)")
                .contains("x-agentfuse-budget: session-cap; scope=session; remaining=0; resets=");
    }

    @Test
    void oneScenarioCanBePlayedAlone() {
        int exit = run("demo", "--scenario", "permissions", "--no-color");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("permissions    ok").doesNotContain("storm");
    }

    @Test
    void anUnknownScenarioIsAUsageErrorThatNamesTheChoices() {
        int exit = run("demo", "--scenario", "meltdown");

        assertThat(exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("unknown scenario 'meltdown'").contains("storm").contains("permissions");
    }
}
