package io.agentfuse.cli;

import io.agentfuse.cli.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The {@code agentfuse} command line: the main class of {@code agentfuse.jar}.
 *
 * <p>Each action is a subcommand class listed in {@code subcommands} below ({@code validate},
 * {@code serve}, {@code mock-provider}); adding one ({@code demo}) means writing its class and
 * adding it to that list. Subcommands reach shared context (the environment used for {@code ${ENV}}) through
 * {@code @ParentCommand}. {@code --help} and {@code --version} work on every level; without a
 * subcommand the usage is printed and the exit code is 2, as for any usage error.
 *
 * <pre>{@code
 * java -jar agentfuse.jar validate --config agentfuse.yaml
 * java -jar agentfuse.jar serve --config agentfuse.yaml --port 8787
 * java -jar agentfuse.jar mock-provider --port 9099
 * int exitCode = AgentfuseCommand.commandLine(Map.of()).execute("validate", "--config", "agentfuse.yaml");
 * }</pre>
 */
@Command(name = "agentfuse",
        description = "Circuit breakers, retries, fallbacks and budgets for AI agents.",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        subcommands = {ValidateCommand.class, ServeCommand.class, MockProviderCommand.class, DemoCommand.class,
                CommandLine.HelpCommand.class})
public final class AgentfuseCommand implements Callable<Integer> {

    private final Map<String, String> environment;
    private final Supplier<StopSignal> stopSignal;

    @Spec
    private CommandSpec spec;

    /** A command that resolves {@code ${ENV}} from {@code environment}; servers stop on SIGTERM and SIGINT. */
    public AgentfuseCommand(Map<String, String> environment) {
        this(environment, StopSignal::onSignals);
    }

    /** A command whose long-running subcommands stop when {@code stopSignal}'s signal says so. */
    AgentfuseCommand(Map<String, String> environment, Supplier<StopSignal> stopSignal) {
        this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
        this.stopSignal = Objects.requireNonNull(stopSignal, "stopSignal");
    }

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine(System.getenv()).execute(args));
    }

    /** The command line, ready to {@link CommandLine#execute(String...) execute}. */
    public static CommandLine commandLine(Map<String, String> environment) {
        return new CommandLine(new AgentfuseCommand(environment));
    }

    /** The environment {@code ${NAME}} in configuration files is resolved from. */
    Map<String, String> environment() {
        return environment;
    }

    /** The stop signal for one long-running subcommand (installs a shutdown hook in production). */
    StopSignal stopSignal() {
        return stopSignal.get();
    }

    /** No subcommand: show what there is, and fail as a usage error does. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("Missing a command.");
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
