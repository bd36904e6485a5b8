package io.agentfuse.cli;

import io.agentfuse.config.CheckedConfig;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code agentfuse validate --config FILE}: loads a configuration the way the gateway would and
 * reports the result. Exit code 0 with a summary on standard output when the file is usable,
 * after its warnings ({@code warning: file:line:column: key: what}, e.g. a model of a built-in
 * family that agentfuse's table does not know); 2 with every error on standard error (one per
 * line, {@code file:line:column: key: problem}) when it is not.
 */
@Command(name = "validate",
        description = "Check a configuration file and summarise what it sets up.",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the file is valid", "2:the file has errors (all are listed), or the command line is wrong"})
final class ValidateCommand implements Callable<Integer> {

    /** The exit code of a configuration that cannot be used; the same as a usage error. */
    static final int INVALID = CommandLine.ExitCode.USAGE;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "The YAML configuration file.")
    private Path config;

    @ParentCommand
    private AgentfuseCommand parent;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            CheckedConfig checked = ConfigLoader.check(config, parent.environment());
            out.println(config + " is valid.");
            checked.warnings().forEach(warning -> out.println("warning: " + warning.format(config.toString())));
            out.print(new ConfigSummary(checked.config()).render());
            out.flush();
            return CommandLine.ExitCode.OK;
        } catch (ConfigException e) {
            err.println(e.getMessage());
            int count = e.errors().size();
            err.println(config + ": " + count + (count == 1 ? " error" : " errors") + "; nothing would start.");
            err.flush();
            return INVALID;
        }
    }
}
