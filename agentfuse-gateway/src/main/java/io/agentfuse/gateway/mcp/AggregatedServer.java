package io.agentfuse.gateway.mcp;

import io.agentfuse.config.McpServerConfig;
import io.vertx.core.json.JsonArray;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the aggregate endpoint keeps of one of its servers across requests: which era it speaks
 * and which versions it supports (for {@code server/discover}), its last good tool list, whether
 * it was ever reached, the list fetch in flight (one at a time, shared by every caller) and the
 * upstream session shared by callers without a session of their own. One per configuration of a
 * server (a reload that changes the server starts afresh). Thread-safe.
 */
final class AggregatedServer {

    /** The era a server speaks. */
    enum Era { STATELESS, SESSIONS }

    private final McpServerConfig config;
    private final UpstreamSession shared;
    private volatile Era era;
    private volatile List<String> versions = List.of();
    private volatile JsonArray lastGoodTools;
    private CompletableFuture<JsonArray> fetching;

    AggregatedServer(McpServerConfig config, McpUpstream http) {
        this.config = config;
        this.shared = new UpstreamSession(http, this);
    }

    McpServerConfig config() {
        return config;
    }

    /** The session of callers without one (2026-07-28 clients) and of the gateway's own list fetches. */
    UpstreamSession shared() {
        return shared;
    }

    /** The era learned, or null before the server was first reached. */
    Era era() {
        return era;
    }

    boolean stateless() {
        return era == Era.STATELESS;
    }

    /** Records what discovery or initialization told of the server. */
    void learnEra(Era learned, List<String> supported) {
        this.versions = List.copyOf(supported);
        this.era = learned;
    }

    /** The protocol versions the server said it supports; empty before it was reached. */
    List<String> versions() {
        return versions;
    }

    /** Whether the server has ever answered discovery or initialization. */
    boolean reached() {
        return era != null;
    }

    /** The tools of its last good list as the server wrote them, or null if it never listed. */
    JsonArray lastGoodTools() {
        return lastGoodTools;
    }

    void listed(JsonArray tools) {
        this.lastGoodTools = tools;
    }

    /**
     * The fetch of the list in flight, or a new one from {@code start}: concurrent list requests
     * share one fetch, so a slow server is asked once, not once per caller.
     */
    synchronized CompletableFuture<JsonArray> fetch(java.util.function.Supplier<CompletableFuture<JsonArray>> start) {
        if (fetching == null || fetching.isDone()) {
            fetching = start.get();
        }
        return fetching;
    }
}
