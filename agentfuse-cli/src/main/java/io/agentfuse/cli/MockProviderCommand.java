package io.agentfuse.cli;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Future;
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
 * {@code agentfuse mock-provider [--port N] [--mcp-port N]}: a fake OpenAI and Anthropic upstream on
 * {@code 127.0.0.1}, scriptable over HTTP (500 storms, 429 with {@code Retry-After}, slow first
 * tokens, dropped streams), to see the gateway's breakers, retries and fallbacks at work without
 * real providers; with {@code --mcp-port}, also a fake MCP server for the MCP proxy. Prints its
 * base URLs and control endpoints, then runs until Ctrl-C.
 */
@Command(name = "mock-provider",
        description = "Run a scriptable fake OpenAI + Anthropic provider on 127.0.0.1 for demos and tests.",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class)
final class MockProviderCommand implements Callable<Integer> {

    @Option(names = {"-p", "--port"}, paramLabel = "N", defaultValue = "9099",
            description = "Port to listen on; default ${DEFAULT-VALUE} (0: any free port).")
    private int port;

    @Option(names = "--mcp-port", paramLabel = "N",
            description = "Also run a scriptable mock MCP server (tools query and insert_row) on this port (0: any free port).")
    private Integer mcpPort;

    @ParentCommand
    private AgentfuseCommand parent;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Vertx vertx = GatewayVertx.create();
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
        MockMcpServer mcp = null;
        if (mcpPort != null) {
            try {
                mcp = MockMcpServer.start(vertx, mcpPort).await();
            } catch (RuntimeException e) {
                vertx.close().await();
                spec.commandLine().getErr().println("agentfuse: the mock MCP server could not start on port " + mcpPort
                        + ": " + e.getMessage());
                spec.commandLine().getErr().flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
            mcp.tools(McpMockTool.of("query", "Runs a read-only SQL query").idempotent(true),
                    McpMockTool.of("insert_row", "Inserts a row"));
            String mcpBase = "http://127.0.0.1:" + mcp.port();
            out.println("mock MCP server listening on " + mcp.url() + "   (tools: query, insert_row)");
            out.println("  control: POST " + mcpBase + "/_mcp/script    e.g. {\"tool\": \"query\", \"steps\": [{\"status\": 500, \"times\": 3}]}");
            out.println("           POST " + mcpBase + "/_mcp/reset     GET " + mcpBase + "/_mcp/requests");
        }
        out.println("Press Ctrl-C to stop.");
        out.flush();
        MockMcpServer mcpServer = mcp;
        return Foreground.runUntilStopped(parent.stopSignal(), () -> mcpServer == null ? mock.close()
                : Future.join(mock.close(), mcpServer.close()).mapEmpty(), vertx, StopSignal.DEFAULT_STOP_TIME);
    }
}
