package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.http.HopByHop;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * The MCP streamable-HTTP proxy at {@code POST/GET/DELETE /mcp/{server}} (docs/design.md §7): every
 * request goes to {@code mcpServers.{server}.url} with its body and headers untouched (less those
 * of one hop), and comes back untouched, apart from what the guards decide:
 * <ul>
 *   <li>{@code tools/call} runs under the tool's breaker {@code tool:<server>/<tool>} (see
 *       {@link ToolCallRunner}); the tool comes from {@code Mcp-Name} in the 2026-07-28 era,
 *       from the body in the 2025-11-25 era;</li>
 *   <li>every request first asks the server's breaker {@code mcp:<server>}; while it is open the
 *       answer is a JSON-RPC error {@code -32000} ({@code CIRCUIT_OPEN: <server> is unavailable,
 *       retry after <s> s}, {@code data.retryAfter}) and a {@code Retry-After} header;</li>
 *   <li>{@code tools/list} answers are read whole to learn which tools are idempotent, and, with
 *       {@code annotateTools: true}, an open tool's description gains a note; tools never vanish;</li>
 *   <li>other answers (SSE answers, the {@code GET} stream, {@code DELETE}) are relayed as they
 *       come ({@link McpRelay}); sessions ({@code Mcp-Session-Id}), {@code MCP-Protocol-Version} and
 *       {@code Last-Event-ID} pass through, so the server keeps its own sessions and resumption.</li>
 * </ul>
 * Thread-safe; the configuration in force is read per request, so a reload applies at once.
 *
 * <pre>{@code
 * McpProxy proxy = new McpProxy(vertx, runtime, metrics, McpProxyOptions.defaults());
 * proxy.mount(router, config.server().maxBodySize());
 * }</pre>
 */
public final class McpProxy {

    private final Vertx vertx;
    private final AgentfuseRuntime runtime;
    private final McpProxyOptions options;
    private final McpUpstream upstream;
    private final ToolCatalog catalog;
    private final ToolCallRunner toolCalls;

    public McpProxy(Vertx vertx, AgentfuseRuntime runtime, GatewayMetrics metrics, McpProxyOptions options) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.options = Objects.requireNonNull(options, "options");
        this.upstream = new McpUpstream(vertx, options);
        this.catalog = new ToolCatalog(runtime.registry());
        this.toolCalls = new ToolCallRunner(runtime, upstream, catalog, metrics);
        // The server breakers exist from the start, so the admin API lists them before any call.
        runtime.config().mcpServers().keySet().forEach(runtime::mcpServerBreaker);
    }

    /** Adds the proxy's routes; request bodies over {@code maxBodySize} are refused with 413. */
    public void mount(Router router, long maxBodySize) {
        router.post("/mcp/:server").handler(BodyHandler.create(false).setBodyLimit(maxBodySize)).handler(this::post)
                .failureHandler(ctx -> failedRequest(ctx, maxBodySize));
        router.get("/mcp/:server").handler(ctx -> stream(ctx, HttpMethod.GET));
        router.delete("/mcp/:server").handler(ctx -> stream(ctx, HttpMethod.DELETE));
        router.route("/mcp/:server").handler(ctx -> GatewayErrors.respondAdmin(ctx.response().putHeader("allow",
                "GET, POST, DELETE"), 405, "invalid_request", "the MCP endpoint answers POST, GET and DELETE"));
    }

    /** Closes the pooled connections to MCP servers. */
    public Future<Void> close() {
        return upstream.close();
    }

    private void post(RoutingContext ctx) {
        McpServerConfig server = server(ctx);
        if (server == null) {
            return;
        }
        Buffer body = ctx.body().buffer() == null ? Buffer.buffer() : ctx.body().buffer();
        McpRequest request;
        try {
            request = McpRequest.of(ctx.request(), body);
        } catch (IllegalArgumentException e) {
            new McpReply.Made(400, ProxyAnswers.error(null, -32700, "invalid_request", "parse error: " + e.getMessage()), -1)
                    .send(ctx.response());
            return;
        }
        CircuitBreaker serverBreaker = runtime.mcpServerBreaker(server.name());
        ServerPermit permit = ServerPermit.of(serverBreaker);
        if (!permit.granted()) {
            if (request.isToolCall()) {
                toolCalls.refusedByServerBreaker(server.name(), request.tool());
            }
            long retryAfter = ProxyAnswers.retryAfterSeconds(serverBreaker);
            new McpReply.Made(request.id() == null ? McpReply.Made.SERVER_OPEN : 200,
                    ProxyAnswers.serverOpen(request.id(), server.name(), retryAfter), retryAfter).send(ctx.response());
            return;
        }
        MultiMap headers = forwarded(ctx.request());
        if (request.isToolCall()) {
            Context context = vertx.getOrCreateContext();
            CompletableFuture<McpReply> reply = toolCalls.run(server, permit, request, headers);
            ctx.response().closeHandler(v -> reply.cancel(true));
            reply.thenAccept(answer -> context.runOnContext(v -> answer.send(ctx.response())));
        } else if (request.isToolList()) {
            listTools(ctx, server, permit, request, headers);
        } else {
            relay(ctx, server, permit, HttpMethod.POST, headers, body, server.defaults().timeout());
        }
    }

    /** A POST the proxy could not read: a body over the limit, or a bug; JSON, never an HTML page. */
    private static void failedRequest(RoutingContext ctx, long maxBodySize) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        if (ctx.statusCode() == 413) {
            GatewayErrors.respondAdmin(ctx.response(), 413, "request_too_large",
                    "the request body is larger than " + maxBodySize + " bytes (server.maxBodySize)");
        } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            GatewayErrors.respondAdmin(ctx.response(), ctx.statusCode(), "invalid_request", "the request could not be read");
        } else {
            GatewayErrors.respondAdmin(ctx.response(), 500, "internal_error", "the MCP proxy failed: "
                    + (ctx.failure() == null ? "HTTP " + ctx.statusCode() : ctx.failure().getMessage()));
        }
    }

    /** {@code GET} (the server's message stream) and {@code DELETE} (end of a session). */
    private void stream(RoutingContext ctx, HttpMethod method) {
        McpServerConfig server = server(ctx);
        if (server == null) {
            return;
        }
        CircuitBreaker serverBreaker = runtime.mcpServerBreaker(server.name());
        ServerPermit permit = ServerPermit.of(serverBreaker);
        if (!permit.granted()) {
            long retryAfter = ProxyAnswers.retryAfterSeconds(serverBreaker);
            new McpReply.Made(McpReply.Made.SERVER_OPEN, ProxyAnswers.serverOpen(null, server.name(), retryAfter), retryAfter)
                    .send(ctx.response());
            return;
        }
        // The GET stream may stay quiet for long: no idle limit, only the client's own.
        relay(ctx, server, permit, method, forwarded(ctx.request()), null, null);
    }

    private void listTools(RoutingContext ctx, McpServerConfig server, ServerPermit permit, McpRequest request,
                           MultiMap headers) {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<McpAnswer> call = upstream.exchange(server.url(), headers, request.body(), server.defaults().timeout());
        ctx.response().closeHandler(v -> call.cancel(true));
        call.whenComplete((answer, error) -> context.runOnContext(v -> {
            if (error != null) {
                failed(ctx, server, permit, error);
                return;
            }
            permit.record(outcomeOf(answer.status()));
            McpReply reply = new McpReply.Relayed(answer);
            if (answer.status() / 100 == 2) {
                var response = answer.response(request.id());
                if (response.isPresent()) {
                    catalog.learn(server.name(), response.get());
                    if (server.annotateTools()) {
                        reply = catalog.annotate(server.name(), response.get())
                                .<McpReply>map(annotated -> new McpReply.Relayed(reencoded(answer, annotated)))
                                .orElse(reply);
                    }
                }
            }
            reply.send(ctx.response());
        }));
    }

    private void relay(RoutingContext ctx, McpServerConfig server, ServerPermit permit, HttpMethod method,
                       MultiMap headers, Buffer body, Duration idleTimeout) {
        Duration headTimeout = server.defaults().timeout();
        upstream.open(server.url(), method, headers, body, headTimeout).onComplete(done -> {
            if (done.failed()) {
                failed(ctx, server, permit, done.cause());
                return;
            }
            McpUpstream.Streamed streamed = done.result();
            permit.record(outcomeOf(streamed.response().statusCode()));
            new McpRelay(vertx, streamed, ctx.response(), options.clientWriteTimeout(), idleTimeout).start();
        });
    }

    /** A request that got no answer: a timeout leaves the server's breaker alone, a broken connection counts. */
    private static void failed(RoutingContext ctx, McpServerConfig server, ServerPermit permit, Throwable error) {
        Throwable cause = OutcomeClassifier.unwrap(error);
        if (cause instanceof CallTimeoutException) {
            permit.release();
            new McpReply.Made(504, ProxyAnswers.error(null, -32001, "timeout", "MCP server " + server.name()
                    + " did not answer within " + server.defaults().timeout().toSeconds() + " s"), -1).send(ctx.response());
        } else if (cause instanceof CancellationException) {
            permit.release();
        } else {
            permit.record(cause instanceof McpTransportException ? Outcome.CONNECTION_ERROR : Outcome.ERROR);
            new McpReply.Made(502, ProxyAnswers.error(null, ProxyAnswers.SERVER_OPEN_CODE,
                    "upstream_unreachable", "MCP server " + server.name() + " is unreachable: " + cause.getMessage()), -1).send(ctx.response());
        }
    }

    /** {@code answer} with its JSON-RPC response replaced by {@code message}, in the answer's own form. */
    private static McpAnswer reencoded(McpAnswer answer, JsonObject message) {
        Buffer body = answer.isEventStream()
                ? Buffer.buffer("event: message\ndata: " + message.encode() + "\n\n")
                : message.toBuffer();
        return new McpAnswer(answer.status(), answer.headers(), body);
    }

    private static Outcome outcomeOf(int status) {
        return status >= 500 ? OutcomeClassifier.ofStatus(status) : status >= 400 ? Outcome.CLIENT_ERROR : Outcome.SUCCESS;
    }

    private McpServerConfig server(RoutingContext ctx) {
        String name = ctx.pathParam("server");
        McpServerConfig server = runtime.config().mcpServers().get(name);
        if (server == null) {
            GatewayErrors.respondAdmin(ctx.response(), 404, "not_found", "no MCP server named " + name
                    + " is configured (mcpServers: " + runtime.config().mcpServers().keySet() + ")");
        }
        return server;
    }

    /** The client's headers for the server, less those of one hop (the session and version headers stay). */
    private static MultiMap forwarded(HttpServerRequest request) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        HopByHop.forEachEndToEnd(request.headers(), headers::add);
        return headers;
    }
}
