package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@code tools/call} of the aggregate endpoint: {@code <server><separator><tool>} is split at the
 * first separator, the call goes to the server in the caller's session with it (the shared one for
 * a caller without a session), with an id of the gateway's, and runs like any proxied call
 * ({@link ToolCallRunner}: the tool's breaker, its timeout cancelled upstream, the server's
 * breaker). What comes back is one JSON-RPC message with the caller's id: the server's response,
 * or a result with {@code isError: true} when the server could not answer one (an open breaker,
 * a timeout, an HTTP error, a server out of reach), so that the agent's model reads every
 * failure as a failed tool. A server that forgot the session (404, it restarted) gets a new one
 * and the call once more.
 */
final class AggregateCalls {

    private final AgentfuseRuntime runtime;
    private final McpUpstream upstream;
    private final ToolCallRunner toolCalls;

    AggregateCalls(AgentfuseRuntime runtime, McpUpstream upstream, ToolCallRunner toolCalls) {
        this.runtime = runtime;
        this.upstream = upstream;
        this.toolCalls = toolCalls;
    }

    /** The answer to the call {@code request}; never fails, except when cancelled. */
    CompletableFuture<JsonObject> call(McpRequest request, McpConfig mcp, List<AggregatedServer> aggregated,
                                       AggregateSessions.Session session) {
        String shown = request.tool();
        Object clientId = request.id();
        Optional<AggregatedServer> target = aggregated.stream()
                .filter(server -> shown.startsWith(server.config().name() + mcp.separator())
                        && shown.length() > server.config().name().length() + mcp.separator().length())
                .findFirst();
        if (target.isEmpty()) {
            return CompletableFuture.completedFuture(ProxyAnswers.error(clientId, -32602, "invalid_request",
                    "unknown tool: the aggregate's tools are named <server>" + mcp.separator() + "<tool>, with a server of "
                            + mcp.aggregate()));
        }
        AggregatedServer server = target.get();
        String tool = shown.substring(server.config().name().length() + mcp.separator().length());
        UpstreamSession upstreamSession = session == null ? server.shared() : session.upstream(server, upstream);
        JsonObject params = ((JsonObject) request.message().getValue("params")).copy().put("name", tool);
        return attempt(server, upstreamSession, tool, shown, clientId, params, true);
    }

    private CompletableFuture<JsonObject> attempt(AggregatedServer server, UpstreamSession session, String tool,
                                                  String shown, Object clientId, JsonObject params, boolean mayReopen) {
        ServerPermit permit = ServerPermit.of(runtime.mcpServerBreaker(server.config().name()));
        if (!permit.granted()) {
            long retryAfter = ProxyAnswers.retryAfterSeconds(permit.breaker());
            toolCalls.refusedByServerBreaker(server.config(), tool);
            return CompletableFuture.completedFuture(ProxyAnswers.serverOpenToolResult(clientId, server.config().name(),
                    retryAfter));
        }
        String id = UpstreamSession.nextId();
        CompletableFuture<McpReply> reply = session.prepare("tools/call", tool, id, params)
                .handle((prepared, error) -> error != null
                        ? CompletableFuture.<McpReply>completedFuture(unopened(server, permit, clientId, error))
                        : toolCalls.run(new ToolCall(server.config(), tool, shown, id, prepared.message(), prepared.body(),
                                prepared.headers()), permit))
                .thenCompose(next -> next);
        CompletableFuture<JsonObject> answer = reply.thenCompose(made -> {
            if (made instanceof McpReply.Relayed relayed && relayed.answer().status() == 404 && mayReopen
                    && session.hasServerSession()) {
                session.reset();
                return attempt(server, session, tool, shown, clientId, params, false);
            }
            return CompletableFuture.completedFuture(message(made, id, clientId, server.config().name()));
        });
        answer.whenComplete((value, error) -> {
            if (answer.isCancelled()) {
                reply.cancel(true);
            }
        });
        return answer;
    }

    /** The session with the server could not be opened: the server is out of reach for now. */
    private static McpReply unopened(AggregatedServer server, ServerPermit permit, Object clientId, Throwable error) {
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof CallTimeoutException) {
            permit.release();
        } else {
            permit.record(Outcome.CONNECTION_ERROR);
        }
        return new McpReply.Made(200, ProxyAnswers.toolError(clientId, "UNAVAILABLE: MCP server "
                + server.config().name() + " could not be reached: " + cause.getMessage()), -1);
    }

    /** The reply as one JSON-RPC message with the caller's id. */
    private static JsonObject message(McpReply reply, Object upstreamId, Object clientId, String server) {
        if (reply instanceof McpReply.Relayed relayed) {
            Optional<JsonObject> response = relayed.answer().response(upstreamId);
            if (response.isPresent()) {
                return response.get().copy().put("id", clientId);
            }
            return ProxyAnswers.toolError(clientId, "ERROR: MCP server " + server + " answered HTTP "
                    + relayed.answer().status() + " without a JSON-RPC response");
        }
        McpReply.Made made = (McpReply.Made) reply;
        JsonObject message = made.message().copy().put("id", clientId);
        if (message.getValue("error") instanceof JsonObject error) {
            return ProxyAnswers.toolError(clientId, "ERROR: " + error.getString("message", "the call failed"));
        }
        return message;
    }
}
