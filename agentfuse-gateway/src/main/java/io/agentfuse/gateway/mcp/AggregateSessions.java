package io.agentfuse.gateway.mcp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The 2025-11-25 sessions of the aggregate endpoint: each is opened by one caller's
 * {@code initialize}, belongs to that caller ({@link CallerIdentity}) and holds the gateway's own
 * session with each server it has called for it, so that a server that keeps state per session
 * (a browser, a shell) keeps it per agent. At most {@value #MAX_SESSIONS} are kept; the oldest
 * is forgotten first (its caller's next request gets 404 and opens a new one). Thread-safe.
 */
final class AggregateSessions {

    static final int MAX_SESSIONS = 10_000;

    private final Map<String, Session> sessions = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Session> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    /** One caller's session. */
    static final class Session {
        final String id;
        final String owner;
        final String version;
        private final Map<AggregatedServer, UpstreamSession> upstream = new ConcurrentHashMap<>();
        private final Map<String, CompletableFuture<?>> inFlight = new ConcurrentHashMap<>();

        private Session(String id, String owner, String version) {
            this.id = id;
            this.owner = owner;
            this.version = version;
        }

        /** This session's session with {@code server}, made on first use. */
        UpstreamSession upstream(AggregatedServer server, McpUpstream http) {
            return upstream.computeIfAbsent(server, key -> new UpstreamSession(http, key));
        }

        /** Keeps the call {@code id} cancellable by the caller's {@code notifications/cancelled} while it runs. */
        void track(Object id, CompletableFuture<?> call) {
            String key = String.valueOf(id);
            inFlight.put(key, call);
            call.whenComplete((value, error) -> inFlight.remove(key, call));
        }

        /** Cancels the call {@code id} of this session, if it still runs (the cancellation reaches its server). */
        void cancel(Object id) {
            CompletableFuture<?> call = inFlight.remove(String.valueOf(id));
            if (call != null) {
                call.cancel(true);
            }
        }

        /** Ends the sessions with the servers; best effort. */
        void close() {
            upstream.forEach((server, session) -> session.close(server.config().listTimeout()));
            upstream.clear();
        }
    }

    /** A new session of {@code owner} speaking {@code version}. */
    synchronized Session open(String owner, String version) {
        Session session = new Session(UUID.randomUUID().toString(), owner, version);
        sessions.put(session.id, session);
        return session;
    }

    /** The session {@code id} if {@code caller} opened it; another caller's session is not found. */
    synchronized Optional<Session> find(String id, String caller) {
        Session session = id == null ? null : sessions.get(id);
        return session != null && session.owner.equals(caller) ? Optional.of(session) : Optional.empty();
    }

    /** Ends the session {@code id} if {@code caller} opened it; returns whether it did. */
    boolean close(String id, String caller) {
        Session session;
        synchronized (this) {
            session = find(id, caller).orElse(null);
            if (session != null) {
                sessions.remove(id);
            }
        }
        if (session != null) {
            session.close();
        }
        return session != null;
    }
}
