package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.Guard;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one {@code tools/call} under its tool's guard ({@code tool:<server>/<tool>}: retry, breaker,
 * timeout) and decides what the client gets and what the server's breaker ({@code mcp:<server>})
 * records:
 * <ul>
 *   <li>a result with {@code isError: true}, a JSON-RPC error, a malformed answer, a 5xx or a
 *       timeout fail the tool (and are retried only if the tool is idempotent or its config says
 *       {@code retries}); the last answer is relayed untouched;</li>
 *   <li>the server's breaker counts a 5xx or a broken connection as a failure and any answer of
 *       the tool (even {@code isError}) as a success, so one bad tool cannot take its siblings down;
 *       a timeout or a call that never reached the server leaves it alone;</li>
 *   <li>an open tool breaker answers the {@code CIRCUIT_OPEN} result at once.</li>
 * </ul>
 * The server's breaker permit is taken by the caller, one per request, and settled here against that
 * permit, so an answer that arrives after the breaker moved on is not counted.
 */
final class ToolCallRunner {

    private final AgentfuseRuntime runtime;
    private final McpUpstream upstream;
    private final ToolCatalog catalog;
    private final GatewayMetrics metrics;

    ToolCallRunner(AgentfuseRuntime runtime, McpUpstream upstream, ToolCatalog catalog, GatewayMetrics metrics) {
        this.runtime = runtime;
        this.upstream = upstream;
        this.catalog = catalog;
        this.metrics = metrics;
    }

    /**
     * Calls the tool of {@code request}; the future gives the reply (it never fails, except when
     * cancelled, which aborts the call in flight).
     */
    CompletableFuture<McpReply> run(McpServerConfig server, ServerPermit serverPermit, McpRequest request,
                                    MultiMap headers) {
        String tool = request.tool();
        Guard guard = runtime.mcpToolGuard(server.name(), tool, catalog.isIdempotent(server.name(), tool));
        Duration timeout = guard.timeout() == null ? server.tool(tool).timeout() : guard.timeout().duration();
        Object id = request.id();
        CompletableFuture<McpAnswer> call = guard.executeAsync(() -> {
            CompletableFuture<McpAnswer> exchange = upstream.exchange(server.url(), headers, request.body(), timeout);
            CompletableFuture<McpAnswer> judged = exchange.thenApply(answer -> judge(answer, id));
            judged.whenComplete((value, error) -> {
                if (judged.isCancelled()) {
                    exchange.cancel(true);
                }
            });
            return judged;
        });
        CompletableFuture<McpReply> reply = call.handle((answer, error) ->
                settle(server.name(), tool, id, timeout, serverPermit, answer, error));
        reply.whenComplete((value, error) -> {
            if (reply.isCancelled()) {
                call.cancel(true);
            }
        });
        return reply;
    }

    /** Counts a {@code tools/call} that the open server breaker refused before it reached the tool's guard. */
    void refusedByServerBreaker(String server, String tool) {
        metrics.mcpToolCall(server, catalog.metricName(server, tool), "server_circuit_open");
    }

    /** The answer if the tool succeeded; otherwise the failure that the guard classifies. */
    private static McpAnswer judge(McpAnswer answer, Object id) {
        if (answer.status() / 100 != 2) {
            throw new McpToolFailure(answer, McpToolFailure.Kind.HTTP_STATUS);
        }
        JsonObject response = answer.response(id)
                .orElseThrow(() -> new McpToolFailure(answer, McpToolFailure.Kind.MALFORMED));
        if (response.containsKey("error")) {
            throw new McpToolFailure(answer, McpToolFailure.Kind.RPC_ERROR);
        }
        if (response.getValue("result") instanceof JsonObject result && Boolean.TRUE.equals(result.getValue("isError"))) {
            throw new McpToolFailure(answer, McpToolFailure.Kind.IS_ERROR);
        }
        return answer;
    }

    private McpReply settle(String server, String tool, Object id, Duration timeout, ServerPermit serverPermit,
                            McpAnswer answer, Throwable error) {
        String metricTool = catalog.metricName(server, tool);
        if (error == null) {
            serverPermit.record(Outcome.SUCCESS);
            metrics.mcpToolCall(server, metricTool, "success");
            return new McpReply.Relayed(answer);
        }
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof McpToolFailure failure) {
            serverPermit.record(failure.isTransportFailure() ? Outcome.SERVER_ERROR
                    : failure.status() / 100 == 4 ? Outcome.CLIENT_ERROR : Outcome.SUCCESS);
            metrics.mcpToolCall(server, metricTool, failure.kind().tag);
            return new McpReply.Relayed(failure.answer());
        }
        if (cause instanceof McpTransportException transport) {
            serverPermit.record(Outcome.CONNECTION_ERROR);
            metrics.mcpToolCall(server, metricTool, "connection_error");
            return new McpReply.Made(502, ProxyAnswers.error(id, ProxyAnswers.SERVER_OPEN_CODE,
                    "upstream_unreachable", "MCP server " + server + " is unreachable: " + transport.getMessage()), -1);
        }
        serverPermit.release();
        if (cause instanceof CircuitOpenException open) {
            metrics.mcpToolCall(server, metricTool, "circuit_open");
            return new McpReply.Made(200, ProxyAnswers.toolOpen(id, tool,
                    ProxyAnswers.retryAfterSeconds(open.rejection())), -1);
        }
        if (cause instanceof CallTimeoutException) {
            metrics.mcpToolCall(server, metricTool, "timeout");
            return new McpReply.Made(200, toolResultError(id, "TIMEOUT: " + tool + " did not answer within "
                    + Math.max(1, timeout.toSeconds()) + " s"), -1);
        }
        if (cause instanceof CancellationException cancelled) {
            throw cancelled;
        }
        metrics.mcpToolCall(server, metricTool, "error");
        return new McpReply.Made(502, ProxyAnswers.error(id, -32603,
                "internal_error", "the call of " + tool + " failed in the proxy: " + cause.getMessage()), -1);
    }

    private static JsonObject toolResultError(Object id, String text) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", new JsonObject()
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", text)))
                .put("isError", true));
    }
}
