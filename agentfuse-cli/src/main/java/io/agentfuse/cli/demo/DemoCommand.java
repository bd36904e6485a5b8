package io.agentfuse.cli.demo;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code agentfuse demo}: every guard of both seeds doing its job, on this machine, with no API
 * keys. One process starts a mock provider and the gateway on free loopback ports, then plays the
 * scenarios through real HTTP with time scaled down by {@code --speed}, printing a timeline and a
 * summary table. Exits 0 when every scenario behaved as expected, 1 otherwise.
 *
 * <pre>{@code
 * java -jar agentfuse.jar demo
 * java -jar agentfuse.jar demo --scenario storm --speed 20
 * }</pre>
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Play the seeds' failure stories against a mock provider through the gateway.",
                "Scenarios: storm, rate-limit, token-overuse, context, permissions, mcp, budget."})
public final class DemoCommand implements Callable<Integer> {

    private static final List<Scenario> SCENARIOS = List.of(new StormScenario(), new RateLimitScenario(),
            new TokenOveruseScenario(), new ContextScenario(), new PermissionScenario(), new McpScenario(), new BudgetScenario());

    @Spec
    private CommandSpec spec;

    @Option(names = "--speed", defaultValue = "100", paramLabel = "N",
            description = "How many times faster than real time (default: ${DEFAULT-VALUE}: 5 minutes pass in 3 s).")
    private double speed;

    @Option(names = "--scenario", paramLabel = "NAME", description = "Play only this scenario.")
    private String scenario;

    @Option(names = "--no-color", description = "Plain text, even on a terminal.")
    private boolean noColor;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // The timeline narrates every transition already; the gateway's own log lines would say it twice.
        // Read by LogSetup when the first logger is made; an operator's AGENTFUSE_LOG_LEVEL still wins.
        if (System.getenv("AGENTFUSE_LOG_LEVEL") == null) {
            System.setProperty("AGENTFUSE_LOG_LEVEL", "ERROR");
        }
        if (!(speed >= 1 && speed <= 10_000)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--speed must be between 1 and 10000, but was " + speed);
        }
        List<Scenario> chosen = SCENARIOS.stream().filter(s -> scenario == null || s.name().equals(scenario)).toList();
        if (chosen.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown scenario '" + scenario + "'; choose one of "
                    + SCENARIOS.stream().map(Scenario::name).toList());
        }
        Timeline timeline = new Timeline(out, !noColor && System.console() != null && !"dumb".equals(System.getenv("TERM")), speed);
        out.printf(Locale.ROOT, "agentfuse demo: a mock provider and the gateway on loopback, no API keys.%n"
                + "The seeds' waits (2 s/4 s/8 s retries, 5 min open breakers) run %.0f× faster; each is shown%n"
                + "with what it would be at real speed.%n", speed);
        List<ScenarioResult> results = new ArrayList<>();
        try (DemoStage stage = DemoStage.start(speed)) {
            stage.warmUp();
            for (Scenario each : chosen) {
                timeline.scenario(each.name(), each.title());
                results.add(each.play(stage, timeline, speed));
            }
        }
        printSummary(out, timeline, results);
        return results.stream().allMatch(ScenarioResult::passed) ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
    }

    private static void printSummary(PrintWriter out, Timeline timeline, List<ScenarioResult> results) {
        out.println();
        out.println("Summary");
        out.printf(Locale.ROOT, "  %-14s %-6s %s%n", "scenario", "result", "what happened");
        for (ScenarioResult result : results) {
            out.printf(Locale.ROOT, "  %-14s %s   %s%n", result.name(), timeline.verdict(result.passed()), result.outcome());
            result.failures().forEach(failure -> out.println("                        expected: " + failure));
        }
        out.flush();
    }
}
