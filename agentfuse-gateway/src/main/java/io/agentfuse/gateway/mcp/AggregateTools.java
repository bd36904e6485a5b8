package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The merged {@code tools/list} of the aggregate endpoint: every server's tools, each named
 * {@code <server><separator><tool>}. A server's list is fetched (page by page, under its breaker
 * {@code mcp:<server>}, one fetch at a time however many callers ask) and waited for at most its
 * {@code listTimeout}; a server that is down, open or slower than that contributes its last good
 * list with every tool noted as unavailable, or nothing if it never listed: one server never fails
 * the whole list, and the proxy never announces a change of it ({@code notifications/tools/list_changed}).
 * A fetch that outlives the wait goes on, and its list is the next caller's. Thread-safe.
 */
final class AggregateTools {

    /** Pages of one server's list followed at most. */
    static final int MAX_PAGES = 16;

    private final AgentfuseRuntime runtime;
    private final McpUpstream upstream;
    private final ToolCatalog catalog;

    AggregateTools(AgentfuseRuntime runtime, McpUpstream upstream, ToolCatalog catalog) {
        this.runtime = runtime;
        this.upstream = upstream;
        this.catalog = catalog;
    }

    /** The merged list of {@code servers}, in their order; never fails. */
    CompletableFuture<JsonArray> list(List<AggregatedServer> servers, McpConfig mcp) {
        List<CompletableFuture<JsonArray>> parts = new ArrayList<>();
        for (AggregatedServer server : servers) {
            parts.add(contribution(server, mcp));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(done -> {
            JsonArray merged = new JsonArray();
            parts.forEach(part -> part.join().forEach(merged::add));
            return merged;
        });
    }

    /** Fetches the list of {@code server} now (or joins the fetch in flight); fails as the server does. */
    CompletableFuture<JsonArray> fetch(AggregatedServer server) {
        return server.fetch(() -> {
            CircuitBreaker breaker = runtime.mcpServerBreaker(server.config().name());
            ServerPermit permit = ServerPermit.of(breaker);
            if (!permit.granted()) {
                return CompletableFuture.failedFuture(new Unavailable("its circuit breaker mcp:" + server.config().name()
                        + " is open, retry after " + ProxyAnswers.retryAfterSeconds(breaker) + " s"));
            }
            CompletableFuture<JsonArray> pages = page(server, null, new JsonArray(), 1);
            pages.whenComplete((tools, error) -> settle(server, permit, tools, error));
            return pages;
        });
    }

    private CompletableFuture<JsonArray> contribution(AggregatedServer server, McpConfig mcp) {
        String name = server.config().name();
        long waitMillis = server.config().listTimeout().toMillis();
        return fetch(server).copy().orTimeout(waitMillis, TimeUnit.MILLISECONDS).handle((tools, error) -> {
            if (error == null) {
                return named(server, tools, mcp, null);
            }
            Throwable cause = OutcomeClassifier.unwrap(error);
            String why = cause instanceof TimeoutException
                    ? "MCP server " + name + " did not list its tools within " + server.config().listTimeout().toMillis() + " ms"
                    : "MCP server " + name + " is unavailable: " + cause.getMessage();
            JsonArray last = server.lastGoodTools();
            return last == null ? new JsonArray() : named(server, last, mcp, why);
        });
    }

    /** The tools of {@code server} under their aggregate names; each noted with {@code unavailable} when given. */
    private JsonArray named(AggregatedServer server, JsonArray tools, McpConfig mcp, String unavailable) {
        String name = server.config().name();
        JsonArray named = new JsonArray();
        for (Object entry : tools) {
            if (entry instanceof JsonObject tool && tool.getValue("name") instanceof String toolName) {
                JsonObject copy = tool.copy().put("name", mcp.aggregateName(name, toolName));
                if (unavailable != null) {
                    ProxyAnswers.noteUnavailable(copy, unavailable);
                } else if (server.config().annotateTools()) {
                    runtime.registry().find(server.config().breakerId(toolName))
                            .filter(breaker -> breaker.state().rejectsCalls())
                            .ifPresent(breaker -> ProxyAnswers.noteUnavailable(copy, "its circuit breaker is open, "
                                    + "calls fail fast for " + ProxyAnswers.retryAfterSeconds(breaker) + " s"));
                }
                named.add(copy);
            }
        }
        return named;
    }

    private CompletableFuture<JsonArray> page(AggregatedServer server, String cursor, JsonArray tools, int page) {
        String id = UpstreamSession.nextId();
        JsonObject params = cursor == null ? new JsonObject() : new JsonObject().put("cursor", cursor);
        UpstreamSession session = server.shared();
        return session.prepare("tools/list", null, id, params).thenCompose(request -> upstream.exchange(
                server.config().url(), request.headers(), request.body(), id, server.config().defaults().timeout())
                .thenCompose(answer -> {
                    if (answer.status() == 404 && session.hasServerSession()) {
                        session.reset(); // the server forgot the session (restarted): the next fetch opens one
                    }
                    if (answer.status() / 100 != 2) {
                        throw new McpToolFailure(answer, McpToolFailure.Kind.HTTP_STATUS);
                    }
                    JsonObject result = answer.response(id)
                            .map(response -> response.getValue("result") instanceof JsonObject found ? found : null)
                            .orElseThrow(() -> new Unavailable("it answered tools/list without a list"));
                    if (result.getValue("tools") instanceof JsonArray list) {
                        list.forEach(tools::add);
                    }
                    if (result.getValue("nextCursor") instanceof String next && !next.isEmpty() && page < MAX_PAGES) {
                        return page(server, next, tools, page + 1);
                    }
                    return CompletableFuture.completedFuture(tools);
                }));
    }

    private void settle(AggregatedServer server, ServerPermit permit, JsonArray tools, Throwable error) {
        if (error == null) {
            permit.record(Outcome.SUCCESS);
            server.listed(tools);
            catalog.learn(server.config().name(), new JsonObject().put("result", new JsonObject().put("tools", tools)));
            return;
        }
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof McpToolFailure failure) {
            permit.record(ServerRelay.outcomeOf(failure.answer().status()));
        } else if (cause instanceof McpTransportException) {
            permit.record(Outcome.CONNECTION_ERROR);
        } else if (cause instanceof CallTimeoutException) {
            permit.release();
        } else {
            permit.record(Outcome.SUCCESS); // it answered, only not with a list
        }
    }

    /** Why a server cannot list now, in words for a tool's note. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message, null, false, false);
        }
    }
}
