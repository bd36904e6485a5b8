package io.agentfuse.gateway.mcp;

import io.agentfuse.config.McpServerConfig;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gateway's own MCP client session with one server, for the aggregate endpoint: it speaks
 * whichever era the server does. The first request finds out ({@link AggregatedServer#era}):
 * {@code server/discover} in the 2026-07-28 era (stateless: every request carries
 * {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} and the {@code _meta} of
 * the era), else {@code initialize} and {@code notifications/initialized} in the 2025-11-25 era
 * (the server's {@code Mcp-Session-Id} on every later request). A session the server no longer
 * knows (404) is opened anew on the next request after {@link #reset}. Thread-safe.
 */
final class UpstreamSession {

    /** The stateless revision. */
    static final String STATELESS = "2026-07-28";
    /** The session revision the gateway asks for. */
    static final String SESSIONS = "2025-11-25";
    static final String VERSION_HEADER = "MCP-Protocol-Version";

    private static final AtomicLong IDS = new AtomicLong();

    private final McpUpstream http;
    private final AggregatedServer server;
    private CompletableFuture<Opened> opened;

    /** What a request needs to be part of the session: the era and the server's session id, if any. */
    private record Opened(boolean stateless, String version, String sessionId) {
    }

    UpstreamSession(McpUpstream http, AggregatedServer server) {
        this.http = http;
        this.server = server;
    }

    /** A fresh JSON-RPC id for a request the gateway sends; never one a client chose. */
    static String nextId() {
        return "agentfuse-" + IDS.incrementAndGet();
    }

    /**
     * The request {@code method} with {@code params} as this session sends it: the body (id
     * {@code id}, the era's {@code _meta}) and headers. Fails as the opening of the session does.
     */
    CompletableFuture<Prepared> prepare(String method, String name, Object id, JsonObject params) {
        return open().thenApply(session -> {
            JsonObject sentParams = params == null ? new JsonObject() : params.copy();
            if (session.stateless()) {
                JsonObject meta = sentParams.getValue("_meta") instanceof JsonObject given ? given : new JsonObject();
                meta.put("io.modelcontextprotocol/protocolVersion", STATELESS);
                if (!meta.containsKey("io.modelcontextprotocol/clientCapabilities")) {
                    meta.put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
                }
                sentParams.put("_meta", meta);
            }
            JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method)
                    .put("params", sentParams);
            return new Prepared(message, message.toBuffer(), headers(session, method, name));
        });
    }

    /** A request ready to send. */
    record Prepared(JsonObject message, Buffer body, MultiMap headers) {
    }

    /** Forgets the server's session (it answered 404), so that the next request opens a new one. */
    synchronized void reset() {
        opened = null;
    }

    /** Whether this session has a server session id that the server may have forgotten. */
    synchronized boolean hasServerSession() {
        return opened != null && opened.isDone() && !opened.isCompletedExceptionally() && opened.join().sessionId() != null;
    }

    /** Ends the server's session ({@code DELETE}), if there is one; best effort. */
    synchronized void close(Duration timeout) {
        if (opened != null && opened.isDone() && !opened.isCompletedExceptionally() && opened.join().sessionId() != null) {
            http.open(server.config().url(), HttpMethod.DELETE, headers(opened.join(), null, null), null, timeout)
                    .onSuccess(streamed -> streamed.response().exceptionHandler(ignored -> { }).resume());
        }
        opened = null;
    }

    private synchronized CompletableFuture<Opened> open() {
        if (opened == null || opened.isCompletedExceptionally()) {
            opened = server.stateless() ? CompletableFuture.completedFuture(new Opened(true, STATELESS, null)) : discover();
        }
        return opened;
    }

    /** {@code server/discover} first (the newer era); a server that does not speak it is initialized. */
    private CompletableFuture<Opened> discover() {
        if (server.era() == AggregatedServer.Era.SESSIONS) {
            return initialize();
        }
        Opened stateless = new Opened(true, STATELESS, null);
        JsonObject params = new JsonObject().put("_meta", new JsonObject()
                .put("io.modelcontextprotocol/protocolVersion", STATELESS)
                .put("io.modelcontextprotocol/clientCapabilities", new JsonObject())
                .put("io.modelcontextprotocol/clientInfo", clientInfo()));
        String id = nextId();
        JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "server/discover")
                .put("params", params);
        Duration timeout = server.config().listTimeout();
        return http.exchange(server.config().url(), headers(stateless, "server/discover", null), message.toBuffer(), id, timeout)
                .thenCompose(answer -> {
                    JsonArray versions = answer.status() / 100 == 2 ? answer.response(id)
                            .map(response -> response.getValue("result") instanceof JsonObject result
                                    && result.getValue("supportedVersions") instanceof JsonArray list ? list : null)
                            .orElse(null) : null;
                    if (versions != null && versions.contains(STATELESS)) {
                        server.learnEra(AggregatedServer.Era.STATELESS, strings(versions));
                        return CompletableFuture.completedFuture(stateless);
                    }
                    return initialize();
                });
    }

    private CompletableFuture<Opened> initialize() {
        String id = nextId();
        JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "initialize")
                .put("params", new JsonObject().put("protocolVersion", SESSIONS)
                        .put("capabilities", new JsonObject()).put("clientInfo", clientInfo()));
        Opened fresh = new Opened(false, null, null);
        return http.exchange(server.config().url(), headers(fresh, null, null), message.toBuffer(), id,
                server.config().listTimeout())
                .thenCompose(answer -> {
                    JsonObject result = answer.status() / 100 != 2 ? null : answer.response(id)
                            .map(response -> response.getValue("result") instanceof JsonObject found ? found : null)
                            .orElse(null);
                    if (result == null || !(result.getValue("protocolVersion") instanceof String version)) {
                        throw new CompletionException(new McpTransportException("MCP server " + server.config().name()
                                + " refused initialize (HTTP " + answer.status() + ")", null));
                    }
                    server.learnEra(AggregatedServer.Era.SESSIONS, List.of(version));
                    Opened session = new Opened(false, version, answer.headers().get(ServerEndpoint.SESSION_HEADER));
                    JsonObject initialized = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized");
                    return http.exchange(server.config().url(), headers(session, null, null), initialized.toBuffer(),
                            server.config().listTimeout()).thenApply(ignored -> session);
                });
    }

    private static MultiMap headers(Opened session, String method, String name) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .add("content-type", "application/json")
                .add("accept", "application/json, text/event-stream");
        if (session.version() != null) {
            headers.add(VERSION_HEADER, session.version());
        }
        if (session.sessionId() != null) {
            headers.add(ServerEndpoint.SESSION_HEADER, session.sessionId());
        }
        if (session.stateless() && method != null) {
            headers.add(McpRequest.METHOD_HEADER, method);
            if (name != null) {
                headers.add(McpRequest.NAME_HEADER, name);
            }
        }
        return headers;
    }

    private static JsonObject clientInfo() {
        return new JsonObject().put("name", "agentfuse-gateway").put("version", AggregateEndpoint.VERSION);
    }

    private static List<String> strings(JsonArray values) {
        return values.stream().filter(String.class::isInstance).map(String.class::cast).toList();
    }
}
