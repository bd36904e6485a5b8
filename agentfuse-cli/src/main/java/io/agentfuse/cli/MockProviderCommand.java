package io.agentfuse.cli;

import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code agentfuse mock-provider [--port N]}: a fake OpenAI and Anthropic upstream on
 * {@code 127.0.0.1}, scriptable over HTTP (500 storms, 429 with {@code Retry-After}, slow first
 * tokens, dropped streams), to see the gateway's breakers, retries and fallbacks at work without
 * real providers. Prints its base URLs and control endpoints, then runs until Ctrl-C.
 */
@Command(name = "mock-provider",
        description = "Run a scriptable fake OpenAI + Anthropic provider on 127.0.0.1 for demos and tests.",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class)
final class MockProviderCommand implements Callable<Integer> {

    @Option(names = {"-p", "--port"}, paramLabel = "N", defaultValue = "9099",
            description = "Port to listen on; default ${DEFAULT-VALUE} (0: any free port).")
    private int port;

    @ParentCommand
    private AgentfuseCommand parent;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Vertx vertx = Vertx.vertx();
        MockProvider mock;
        try {
            mock = MockProvider.start(vertx, port).await();
        } catch (RuntimeException e) {
            vertx.close().await();
            spec.commandLine().getErr().println("agentfuse: the mock provider could not start on port " + port + ": "
                    + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        String base = mock.anthropicBaseUrl();
        out.println("mock provider listening on " + base);
        out.println("  anthropic baseUrl: " + mock.anthropicBaseUrl() + "   (POST /v1/messages)");
        out.println("  openai baseUrl:    " + mock.openAiBaseUrl() + "   (POST /v1/chat/completions)");
        out.println("  control: POST " + base + "/_mock/script    append scripted answers, e.g. [{\"status\": 500, \"times\": 3}]");
        out.println("           POST " + base + "/_mock/default   the answer once the script is used up");
        out.println("           POST " + base + "/_mock/reset     forget the script and the recorded requests");
        out.println("           GET  " + base + "/_mock/requests  the requests received so far");
        out.println("Press Ctrl-C to stop.");
        out.flush();
        return Foreground.runUntilStopped(parent.stopSignal(), mock::close, vertx);
    }
}
