package io.agentfuse.mock.mcp;

import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.http.HttpServerRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The MCP requests a {@link MockMcpServer} received, in arrival order, as
 * {@link RecordedRequest}s; an entry learns later if its caller left before the answer. Thread-safe.
 */
final class McpJournal {

    private final List<Entry> entries = new ArrayList<>();

    synchronized Entry record(HttpServerRequest request, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        request.headers().forEach(header -> headers.put(header.getKey().toLowerCase(Locale.ROOT), header.getValue()));
        Entry entry = new Entry(request.method().name(), request.path(), headers, body, Instant.now());
        entries.add(entry);
        return entry;
    }

    synchronized List<RecordedRequest> snapshot() {
        return entries.stream().map(Entry::snapshot).toList();
    }

    synchronized void clear() {
        entries.clear();
    }

    /** One received request; {@link #markDisconnected()} may be called from any thread. */
    static final class Entry {
        private final String method;
        private final String path;
        private final Map<String, String> headers;
        private final String body;
        private final Instant receivedAt;
        private final AtomicBoolean disconnected = new AtomicBoolean();

        private Entry(String method, String path, Map<String, String> headers, String body, Instant receivedAt) {
            this.method = method;
            this.path = path;
            this.headers = headers;
            this.body = body;
            this.receivedAt = receivedAt;
        }

        void markDisconnected() {
            disconnected.set(true);
        }

        RecordedRequest snapshot() {
            return new RecordedRequest(method, path, headers, body, receivedAt, disconnected.get());
        }
    }
}
