package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.tracing.McpCallTrace;
import io.agentfuse.gateway.tracing.Tracing;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.McpServerConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.BoundedNames;
import io.agentfuse.gateway.http.HopByHop;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.CompletableFuture;

/**
 * {@code POST/GET/DELETE /mcp/{server}}: every request goes to {@code mcpServers.{server}.url}
 * with its body and headers untouched (less those of one hop), and comes back untouched, apart
 * from what the guards decide:
 * <ul>
 *   <li>a session id ({@code Mcp-Session-Id}) is only accepted from the caller whose
 *       {@code initialize} got it; any other caller gets 404, as for an unknown session;</li>
 *   <li>every request first asks the server's breaker {@code mcp:<server>}; while it is open a
 *       {@code tools/call} gets the {@code CIRCUIT_OPEN} result naming the server, every other
 *       request a JSON-RPC error {@code -32000} and a {@code Retry-After} header;</li>
 *   <li>{@code tools/call} runs under its tool's breaker ({@link ToolCallRunner});</li>
 *   <li>{@code tools/list} answers are read whole to learn the server's tools, and, with
 *       {@code annotateTools: true}, an open tool's description gains a note; tools never vanish;</li>
 *   <li>other requests are relayed by {@link ServerRelay}: SSE answers, the {@code GET} stream and
 *       {@code DELETE} as they come, a JSON answer once whole, and an answer that times out or
 *       breaks off ends with a JSON-RPC error for its request; {@code MCP-Protocol-Version} and
 *       {@code Last-Event-ID} pass through;</li>
 *   <li>a request that finds all connections to its server in use ({@link ConnectionSlots}) is
 *       refused at once as the gateway's overload (429), counted by no breaker.</li>
 * </ul>
 */
final class ServerEndpoint {

    /** The header that carries a 2025-11-25 session. */
    static final String SESSION_HEADER = "Mcp-Session-Id";

    private final Vertx vertx;
    private final AgentfuseRuntime runtime;
    private final McpUpstream upstream;
    private final ToolCatalog catalog;
    private final ToolCallRunner toolCalls;
    private final SessionOwners owners;
    private final CallerIdentity identity;
    private final Tracing tracing;
    private final ServerRelay relay;

    ServerEndpoint(Vertx vertx, AgentfuseRuntime runtime, McpProxyOptions options, McpUpstream upstream,
                   ToolCatalog catalog, ToolCallRunner toolCalls, SessionOwners owners, CallerIdentity identity,
                   Tracing tracing) {
        this.vertx = vertx;
        this.runtime = runtime;
        this.upstream = upstream;
        this.catalog = catalog;
        this.toolCalls = toolCalls;
        this.owners = owners;
        this.identity = identity;
        this.tracing = tracing;
        this.relay = new ServerRelay(vertx, options, upstream, owners);
    }

    void post(RoutingContext ctx) {
        Buffer body = ctx.body().buffer() == null ? Buffer.buffer() : ctx.body().buffer();
        McpServerConfig server = server(ctx, body);
        if (server == null) {
            return;
        }
        McpRequest request;
        try {
            request = McpRequest.of(ctx.request().headers(), body);
        } catch (McpRefusal refusal) {
            refusal.reply().send(ctx.response());
            return;
        }
        String caller = identity.of(ctx.request());
        if (!mayUseSession(ctx.request(), server, caller)) {
            unknownSession(request.id()).send(ctx.response());
            return;
        }
        McpCallTrace span = tracing.mcpCall(ctx.request().headers(), server.name(), request.method(), request.tool());
        if (span != McpCallTrace.NONE) {
            ctx.addEndHandler(done -> span.ended(ctx.response().getStatusCode()));
            request = request.withTraceContext(span.propagation());
            body = request.body();
        }
        MultiMap headers = forwarded(ctx.request());
        ToolCall call = request.isToolCall() ? ToolCall.relayed(server, request, headers) : null;
        ServerPermit permit = ServerPermit.of(runtime.mcpServerBreaker(server.name()));
        if (!permit.granted()) {
            long retryAfter = ProxyAnswers.retryAfterSeconds(permit.breaker());
            if (call != null) {
                toolCalls.refusedByServerBreaker(server, call.tool());
                new McpReply.Made(200, ProxyAnswers.serverOpenToolResult(request.id(), server.name(), retryAfter),
                        retryAfter).send(ctx.response());
            } else {
                new McpReply.Made(request.id() == null ? McpReply.Made.SERVER_OPEN : 200,
                        ProxyAnswers.serverOpen(request.id(), server.name(), retryAfter), retryAfter).send(ctx.response());
            }
            return;
        }
        if (call != null) {
            Context context = vertx.getOrCreateContext();
            CompletableFuture<McpReply> reply = toolCalls.run(call, permit);
            ctx.response().closeHandler(v -> reply.cancel(true));
            reply.thenAccept(answer -> context.runOnContext(v -> answer.send(ctx.response())));
            return;
        }
        ConnectionSlots.Slot slot = slot(ctx, server, permit, request.id(), ConnectionSlots.Kind.CALL);
        if (slot == null) {
            return;
        }
        if (request.isToolList()) {
            listTools(ctx, server, permit, slot, request, headers);
        } else {
            relay.relay(ctx, server, permit, slot, HttpMethod.POST, request.id(), headers, body, server.defaults().timeout(), caller);
        }
    }

    /**
     * A slot of {@code kind} for a request to {@code server}, or null when every one is taken: the
     * request has then been refused as the gateway's overload and the server's permit given back.
     */
    private ConnectionSlots.Slot slot(RoutingContext ctx, McpServerConfig server, ServerPermit permit, Object id,
                                      ConnectionSlots.Kind kind) {
        var slot = upstream.slots().tryTake(server.url(), kind);
        if (slot.isEmpty()) {
            permit.release();
            McpReply.Made.overloaded(id, server.name(), upstream.slots()).send(ctx.response());
            return null;
        }
        return slot.get();
    }

    /** {@code GET}: the server's message stream. */
    void get(RoutingContext ctx) {
        stream(ctx, HttpMethod.GET);
    }

    /** {@code DELETE}: the end of a session. */
    void delete(RoutingContext ctx) {
        stream(ctx, HttpMethod.DELETE);
    }

    private void stream(RoutingContext ctx, HttpMethod method) {
        McpServerConfig server = server(ctx, null);
        if (server == null) {
            return;
        }
        String caller = identity.of(ctx.request());
        try {
            McpRequest.session(ctx.request().headers(), null);
        } catch (McpRefusal twice) {
            twice.reply().send(ctx.response());
            return;
        }
        if (!mayUseSession(ctx.request(), server, caller)) {
            unknownSession(null).send(ctx.response());
            return;
        }
        ServerPermit permit = ServerPermit.of(runtime.mcpServerBreaker(server.name()));
        if (!permit.granted()) {
            long retryAfter = ProxyAnswers.retryAfterSeconds(permit.breaker());
            new McpReply.Made(McpReply.Made.SERVER_OPEN, ProxyAnswers.serverOpen(null, server.name(), retryAfter), retryAfter)
                    .send(ctx.response());
            return;
        }
        ConnectionSlots.Slot slot = slot(ctx, server, permit, null,
                method == HttpMethod.GET ? ConnectionSlots.Kind.STREAM : ConnectionSlots.Kind.CALL);
        if (slot == null) {
            return;
        }
        // The GET stream may stay quiet for long: no idle limit, only the client's own.
        relay.relay(ctx, server, permit, slot, method, null, forwarded(ctx.request()), null, null, caller);
    }

    /** Whether the request carries no session, or one that {@code caller} opened. */
    private boolean mayUseSession(HttpServerRequest request, McpServerConfig server, String caller) {
        String session = request.getHeader(SESSION_HEADER);
        return session == null || owners.owns(server.name(), session, caller);
    }

    /** The answer to a session that is unknown, or another caller's (the two are not told apart). */
    static McpReply unknownSession(Object id) {
        return new McpReply.Made(404, ProxyAnswers.error(id, -32600, "invalid_request",
                "unknown session: no session with this Mcp-Session-Id was opened by this caller; send initialize"), -1);
    }

    private void listTools(RoutingContext ctx, McpServerConfig server, ServerPermit permit, ConnectionSlots.Slot slot,
                           McpRequest request, MultiMap headers) {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<McpAnswer> call = upstream.exchange(server.url(), headers, request.body(), request.id(),
                server.defaults().timeout());
        ctx.response().closeHandler(v -> call.cancel(true));
        call.whenComplete((answer, error) -> context.runOnContext(v -> {
            slot.release();
            if (error != null) {
                ServerRelay.failed(ctx, server, permit, request.id(), error);
                return;
            }
            McpReply reply;
            try {
                reply = listed(server, request, answer);
            } catch (McpAnswerTooLargeException tooLarge) {
                // The server's own answer is unusable: its failure, as a malformed model answer is the model's.
                permit.record(Outcome.ERROR);
                new McpReply.Made(502, ProxyAnswers.answerTooLarge(request.id(), "tools/list", tooLarge), -1)
                        .send(ctx.response());
                return;
            }
            permit.record(ServerRelay.outcomeOf(answer.status()));
            reply.send(ctx.response());
        }));
    }

    /** The reply to a {@code tools/list}: the server's answer, whose tools are learnt, annotated if configured. */
    private McpReply listed(McpServerConfig server, McpRequest request, McpAnswer answer) {
        McpReply reply = new McpReply.Relayed(answer);
        if (answer.status() / 100 == 2) {
            var response = answer.response(request.id());
            if (response.isPresent()) {
                catalog.learn(server.name(), response.get());
                if (server.annotateTools()) {
                    reply = catalog.annotate(server.name(), response.get())
                            .<McpReply>map(annotated -> new McpReply.Relayed(answer.withMessage(annotated)))
                            .orElse(reply);
                }
            }
        }
        return reply;
    }

    /** The server the path names; else the request ({@code body}: a POST's) has been answered {@link McpReply.Made#notConfigured}. */
    private McpServerConfig server(RoutingContext ctx, Buffer body) {
        String name = ctx.pathParam("server");
        McpServerConfig server = runtime.config().mcpServers().get(name);
        if (server == null) {
            String shown = BoundedNames.isPlain(name, ToolCatalog.MAX_NAME_LENGTH) ? name : "(not a server name)";
            // Named to any caller that got here: a client key (checked before) may use every server (docs/design.md §7).
            McpReply.Made.notConfigured(McpRequest.requestIdOf(ctx.request().headers(), body), "no MCP server named "
                    + shown + " is configured (mcpServers: " + runtime.config().mcpServers().keySet() + ")")
                    .send(ctx.response());
        }
        return server;
    }

    /** The client's headers for the server, less those of one hop (the session and version headers stay). */
    static MultiMap forwarded(HttpServerRequest request) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        HopByHop.forEachEndToEnd(request.headers(), headers::add);
        return headers;
    }
}
