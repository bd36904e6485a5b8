package io.agentfuse.cli;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.reload.ConfigFile;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code agentfuse serve --config FILE [--port N] [--host ADDRESS]}: runs the gateway until the
 * process is stopped (SIGTERM, Ctrl-C), then drains (docs/design.md §14: {@code /readyz} 503 at once, new
 * connections served for {@code server.drainDelay}, requests in flight given {@code server.shutdownGrace})
 * and exits with 0; a second signal stops at once.
 * Breaker state is kept in memory, or shared on Redis with {@code state.store: redis}. Prints one line once listening:
 * {@code agentfuse gateway listening on http://127.0.0.1:8787}. The configuration file is read
 * again on SIGHUP, on {@code POST /admin/reload} and when it changes (checked every 2 s); a file
 * with errors is logged and changes nothing.
 *
 * <p>A configuration with errors prints every error and exits with 2 — nothing starts. A port
 * that cannot be bound exits with 1.
 */
@Command(name = "serve",
        description = "Run the gateway: OpenAI- and Anthropic-compatible endpoints, admin API, metrics, dashboard.",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped normally", "1:the gateway could not start (e.g. the port is taken)",
                "2:the configuration has errors or asks for what the gateway cannot do; nothing started"})
final class ServeCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The YAML configuration file.")
    private Path config;

    @Option(names = {"-p", "--port"}, paramLabel = "N", description = "Port to listen on; default server.port of the file.")
    private Integer port;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "${env:AGENTFUSE_HOST:-127.0.0.1}",
            description = "Address to listen on; default the variable AGENTFUSE_HOST, else 127.0.0.1 (now ${DEFAULT-VALUE}). "
                    + "Use 0.0.0.0 to serve other hosts (the container image does).")
    private String host;

    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "How log lines (on standard error) are written: text or json (one object per line); default ${DEFAULT-VALUE}.")
    private LogFormat logFormat;

    @ParentCommand
    private AgentfuseCommand parent;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        logFormat.select();
        ServeMessages messages = new ServeMessages(logFormat, spec.commandLine().getOut(), spec.commandLine().getErr());
        AgentfuseConfig loaded;
        try {
            loaded = ConfigLoader.load(config, parent.environment());
        } catch (ConfigException e) {
            int count = e.errors().size();
            messages.problem(e.getMessage() + "\n" + config + ": " + count + (count == 1 ? " error" : " errors")
                    + "; nothing started.");
            return ValidateCommand.INVALID;
        }
        GatewayOptions.Builder options = GatewayOptions.builder().host(host)
                .configFile(ConfigFile.of(config, parent.environment()));
        if (port != null) {
            options.port(port);
        }
        Vertx vertx;
        try {
            vertx = GatewayVertx.create(loaded.server().transport());
        } catch (IllegalStateException e) {
            messages.problem("agentfuse: the gateway could not start: " + e.getMessage());
            return CommandLine.ExitCode.SOFTWARE;
        }
        GatewayServer gateway;
        try {
            gateway = GatewayServer.start(vertx, loaded, options.build()).await();
        } catch (RuntimeException e) {
            vertx.close().await();
            messages.problem("agentfuse: the gateway could not start: " + e.getMessage());
            return e instanceof UnsupportedOperationException ? ValidateCommand.INVALID : CommandLine.ExitCode.SOFTWARE;
        }
        // Installed before the line that tells a supervisor it may send signals.
        ReloadSignal.Installed hangUp = ReloadSignal.install(() -> gateway.reload("SIGHUP"));
        Logger log = LoggerFactory.getLogger(ServeCommand.class);
        log.info("network transport: {}", GatewayVertx.describe(vertx));
        HeapAdvice.of(ManagementFactory.getRuntimeMXBean().getInputArguments(), Runtime.getRuntime().maxMemory())
                .ifPresent(log::warn);
        messages.listening(gateway.baseUrl());
        if (hangUp == ReloadSignal.Installed.IGNORED_BY_PARENT) {
            messages.warning("agentfuse: SIGHUP is ignored by this process (started with nohup?), so it will not reload the "
                    + "configuration; use POST /admin/reload or change the file");
        }
        StopSignal stop = parent.stopSignal();
        // A JVM shutdown (the signals taken elsewhere) waits as long as a drain may take, and a little more.
        Duration longestStop = longestStop(loaded.server().shutdown());
        stop.expectStopWithin(longestStop.plus(Foreground.CLOSE_BOUND));
        return Foreground.runUntilStopped(stop, gateway::shutDown, gateway::close, vertx, longestStop);
    }

    /**
     * How long a stop with {@code shutdown}'s settings may take before it is given up: the drain,
     * the grace and a little more for the answers of the grace's end to be written. The process then
     * exits at most {@link Foreground#CLOSE_BOUND} later.
     */
    static Duration longestStop(ServerConfig.Shutdown shutdown) {
        return shutdown.longest().plusSeconds(5);
    }
}
