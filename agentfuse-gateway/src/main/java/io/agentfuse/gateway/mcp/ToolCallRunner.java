package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.Guard;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one {@code tools/call} under its tool's guard ({@code tool:<server>/<tool>}: retry, breaker,
 * timeout) and decides what the client gets and what the server's breaker ({@code mcp:<server>})
 * records:
 * <ul>
 *   <li>a result with {@code isError: true}, a JSON-RPC error, a malformed answer, an answer too
 *       large to read, a 5xx or a timeout fail the tool (and are retried only if the tool is idempotent or its config says
 *       {@code retries}); the last answer is relayed untouched;</li>
 *   <li>the server's breaker counts a 5xx or a broken connection as a failure and any answer of
 *       the tool (even {@code isError}) as a success, so one bad tool cannot take its siblings down;
 *       a timeout or a call that never reached the server leaves it alone;</li>
 *   <li>an open tool breaker answers the {@code CIRCUIT_OPEN} result at once;</li>
 *   <li>a call that finds every connection to its server taken ({@link ConnectionSlots}) is refused
 *       at once as the gateway's overload (429, {@code Retry-After}), counted by neither breaker;</li>
 *   <li>an attempt abandoned before its answer (past its {@code timeout}, or its caller gone) is
 *       cancelled on the server with {@code notifications/cancelled} (its request id, its session
 *       and version headers), and a timed-out call answers its caller only once that notification
 *       was sent, so the server has been told to stop before the agent sees the failure.</li>
 * </ul>
 * The tool is guarded and counted under the name {@link ToolCatalog#breakerTool} gives (a name the
 * server did not list has no tool breaker at all). The
 * server's breaker permit is taken by the caller, one per request, and settled here against that
 * permit, so an answer that arrives after the breaker moved on is not counted.
 */
final class ToolCallRunner {

    /**
     * The guard of calls of names the server did not list ({@link ToolCatalog#UNLISTED}): one attempt,
     * no breaker. Any caller can invent such names, so a breaker they shared would let one caller's
     * failing calls refuse another caller's; only the server's breaker ({@code mcp:<server>}) and
     * the call's timeout guard them, and the metric still counts them under one tag.
     */
    private static final Guard UNLISTED_CALLS = Guard.builder("tool:" + ToolCatalog.UNLISTED).retry(RetryPolicy.none()).build();

    /** How long a timed-out call waits for its cancellation to be taken before it answers. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(1);

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
     * Calls the tool; the future gives the reply (it never fails, except when cancelled, which
     * aborts the call in flight).
     */
    CompletableFuture<McpReply> run(ToolCall call, ServerPermit serverPermit) {
        String server = call.server().name();
        String guarded = catalog.breakerTool(call.server(), call.tool());
        Optional<ConnectionSlots.Slot> slot = upstream.slots().tryTake(call.server().url(), ConnectionSlots.Kind.CALL);
        if (slot.isEmpty()) {
            // The gateway's own saturation: the tool was not asked, so neither breaker hears of it.
            serverPermit.release();
            metrics.mcpToolCall(server, guarded, "overloaded");
            return CompletableFuture.completedFuture(McpReply.Made.overloaded(call.id(), server, upstream.slots()));
        }
        CompletableFuture<McpReply> reply = guarded(call, guarded, serverPermit);
        reply.whenComplete((value, error) -> slot.get().release());
        return reply;
    }

    private CompletableFuture<McpReply> guarded(ToolCall call, String guarded, ServerPermit serverPermit) {
        String server = call.server().name();
        Guard guard = ToolCatalog.UNLISTED.equals(guarded) ? UNLISTED_CALLS
                : runtime.mcpToolGuard(server, guarded, catalog.isIdempotent(server, guarded));
        Duration timeout = guard.timeout() == null ? call.server().tool(guarded).timeout() : guard.timeout().duration();
        AtomicReference<CompletableFuture<McpAnswer>> attempt = new AtomicReference<>();
        AtomicReference<CompletableFuture<?>> cancellation = new AtomicReference<>(CompletableFuture.completedFuture(null));
        // Why an attempt ended without its answer: its timeout, unless the caller left first.
        AtomicReference<String> abandoned = new AtomicReference<>("timeout: no answer within "
                + Math.max(1, timeout.toSeconds()) + " s");
        CompletableFuture<McpAnswer> calls = guard.executeAsync(() -> {
            CompletableFuture<McpAnswer> exchange = upstream.exchange(call.server().url(), call.headers(), call.body(), call.id(), timeout);
            attempt.set(exchange);
            exchange.whenComplete((answer, error) -> {
                Throwable cause = error == null ? null : OutcomeClassifier.unwrap(error);
                if (cause instanceof CallTimeoutException || cause instanceof CancellationException) {
                    cancellation.set(cancelUpstream(call, abandoned.get()));
                }
            });
            CompletableFuture<McpAnswer> judged = exchange.thenApply(answer -> judge(answer, call.id()));
            judged.whenComplete((value, error) -> {
                if (judged.isCancelled()) {
                    exchange.cancel(true);
                }
            });
            return judged;
        });
        CompletableFuture<McpReply> reply = new CompletableFuture<>();
        calls.whenComplete((answer, error) -> {
            CompletableFuture<McpAnswer> last = attempt.get();
            if (error != null && last != null) {
                last.cancel(true); // an attempt the guard gave up on, if its own timer has not ended it yet
            }
            cancellation.get().orTimeout(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS).whenComplete((sent, failed) -> {
                try {
                    reply.complete(settle(call, guarded, timeout, serverPermit, answer, error));
                } catch (CancellationException cancelled) {
                    reply.cancel(true);
                }
            });
        });
        reply.whenComplete((value, error) -> {
            if (reply.isCancelled()) {
                abandoned.set("cancelled by the caller");
                calls.cancel(true);
            }
        });
        return reply;
    }

    /** Counts a {@code tools/call} that the open server breaker refused before it reached the tool's guard. */
    void refusedByServerBreaker(McpServerConfig server, String tool) {
        metrics.mcpToolCall(server.name(), catalog.breakerTool(server, tool), "server_circuit_open");
    }

    /** Sends {@code notifications/cancelled} for {@code call}; the future ends when the server took it (or did not). */
    private CompletableFuture<?> cancelUpstream(ToolCall call, String reason) {
        ToolCall.Cancellation cancel = call.cancellation(reason);
        return upstream.exchange(call.server().url(), cancel.headers(), cancel.body(), CANCEL_WAIT)
                .handle((answer, error) -> null);
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

    private McpReply settle(ToolCall call, String guarded, Duration timeout, ServerPermit serverPermit,
                            McpAnswer answer, Throwable error) {
        String server = call.server().name();
        Object id = call.id();
        if (error == null) {
            serverPermit.record(Outcome.SUCCESS);
            metrics.mcpToolCall(server, guarded, "success");
            return new McpReply.Relayed(answer);
        }
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof McpToolFailure failure) {
            serverPermit.record(failure.isTransportFailure() ? Outcome.SERVER_ERROR
                    : failure.status() / 100 == 4 ? Outcome.CLIENT_ERROR : Outcome.SUCCESS);
            metrics.mcpToolCall(server, guarded, failure.kind().tag);
            return new McpReply.Relayed(failure.answer());
        }
        if (cause instanceof McpAnswerTooLargeException tooLarge) {
            // The tool answered, too much: its failure (counted by its breaker), not the transport's.
            serverPermit.record(Outcome.SUCCESS);
            metrics.mcpToolCall(server, guarded, "too_large");
            return new McpReply.Made(502, ProxyAnswers.answerTooLarge(id, "the call of " + call.shownName(), tooLarge), -1);
        }
        if (cause instanceof McpTransportException transport) {
            serverPermit.record(Outcome.CONNECTION_ERROR);
            metrics.mcpToolCall(server, guarded, "connection_error");
            return new McpReply.Made(502, ProxyAnswers.error(id, ProxyAnswers.SERVER_OPEN_CODE,
                    "upstream_unreachable", "MCP server " + server + " is unreachable: " + transport.getMessage()), -1);
        }
        serverPermit.release();
        if (cause instanceof CircuitOpenException open) {
            metrics.mcpToolCall(server, guarded, "circuit_open");
            return new McpReply.Made(200, ProxyAnswers.toolOpen(id, call.shownName(),
                    ProxyAnswers.retryAfterSeconds(open.rejection())), -1);
        }
        if (cause instanceof CallTimeoutException) {
            metrics.mcpToolCall(server, guarded, "timeout");
            return new McpReply.Made(200, ProxyAnswers.toolError(id, "TIMEOUT: " + call.shownName()
                    + " did not answer within " + Math.max(1, timeout.toSeconds()) + " s; the call was cancelled"), -1);
        }
        if (cause instanceof CancellationException cancelled) {
            throw cancelled;
        }
        metrics.mcpToolCall(server, guarded, "error");
        return new McpReply.Made(502, ProxyAnswers.error(id, -32603,
                "internal_error", "the call of " + call.shownName() + " failed in the proxy: " + cause.getMessage()), -1);
    }
}
