package io.agentfuse.mock;

import io.vertx.core.http.HttpServerRequest;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The requests a mock server ({@link MockProvider}, the mock MCP server) received, in arrival
 * order, as {@link RecordedRequest}s. Each entry can still learn, after it was recorded, that its
 * caller disconnected early. Thread-safe.
 *
 * <p>Bounded: it keeps the newest {@link #MAX_ENTRIES} requests, and of them no more than
 * {@link #MAX_BODY_CHARS} characters of bodies, so a mock that serves a soak or a load test for
 * hours does not run out of memory (tests look at far fewer; 10 000 agent conversations of 150 KB
 * each would be 1.5 GB).
 *
 * <pre>{@code
 * RequestJournal.Entry entry = journal.record(request, body);
 * request.connection().closeHandler(v -> entry.markDisconnected());
 * }</pre>
 */
public final class RequestJournal {

    /** The most requests remembered; older ones are forgotten first. */
    public static final int MAX_ENTRIES = 10_000;
    /** The most characters of request bodies remembered; older requests are forgotten first. */
    public static final long MAX_BODY_CHARS = 32L << 20;

    private final Deque<Entry> entries = new ArrayDeque<>();
    private long bodyChars;

    /** Records {@code request} with its {@code body} and returns the live entry. */
    public synchronized Entry record(HttpServerRequest request, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        request.headers().forEach(header -> headers.put(header.getKey().toLowerCase(Locale.ROOT), header.getValue()));
        Entry entry = new Entry(request.method().name(), request.path(), headers, body, Instant.now());
        while (!entries.isEmpty() && (entries.size() == MAX_ENTRIES || bodyChars + body.length() > MAX_BODY_CHARS)) {
            bodyChars -= entries.removeFirst().body.length();
        }
        entries.addLast(entry);
        bodyChars += body.length();
        return entry;
    }

    /** Snapshots of every entry, oldest first. */
    public synchronized List<RecordedRequest> snapshot() {
        return entries.stream().map(Entry::snapshot).toList();
    }

    /** Forgets every entry. */
    public synchronized void clear() {
        entries.clear();
        bodyChars = 0;
    }

    /** One received request; {@link #markDisconnected()} may be called from any thread. */
    public static final class Entry {
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

        /** Notes that the caller left before the answer was complete. */
        public void markDisconnected() {
            disconnected.set(true);
        }

        RecordedRequest snapshot() {
            return new RecordedRequest(method, path, headers, body, receivedAt, disconnected.get());
        }
    }
}
