package io.agentfuse.mock.mcp;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of the 2025-11-25 era of a {@link MockMcpServer}: each has an id (sent as
 * {@code Mcp-Session-Id}), a log of the events it pushed on its {@code GET} stream (ids
 * {@code <n>}, so that a client can resume with {@code Last-Event-ID}) and the streams open now.
 * Thread-safe: each session synchronizes on itself.
 */
final class McpSessions {

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    Session open() {
        Session session = new Session(UUID.randomUUID().toString());
        sessions.put(session.id, session);
        return session;
    }

    Optional<Session> find(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(sessions.get(id));
    }

    boolean close(String id) {
        Session session = sessions.remove(id);
        if (session != null) {
            session.endStreams();
        }
        return session != null;
    }

    List<String> ids() {
        return List.copyOf(sessions.keySet());
    }

    /** Pushes {@code message} to every session's GET stream (logged for sessions without one open). */
    void broadcast(JsonObject message) {
        sessions.values().forEach(session -> session.push(message));
    }

    void clear() {
        sessions.values().forEach(Session::endStreams);
        sessions.clear();
    }

    /** One session: its event log and open GET streams. */
    static final class Session {
        final String id;
        private final List<String> log = new ArrayList<>();
        private final List<HttpServerResponse> streams = new ArrayList<>();

        private Session(String id) {
            this.id = id;
        }

        /** Opens a GET stream on {@code response}, first replaying the events after {@code lastEventId}. */
        synchronized void attach(HttpServerResponse response, String lastEventId) {
            int from = 0;
            if (lastEventId != null) {
                try {
                    from = Integer.parseInt(lastEventId.trim());
                } catch (NumberFormatException e) {
                    from = log.size();
                }
            }
            for (int i = Math.max(0, from); i < log.size(); i++) {
                response.write(event(i + 1, log.get(i)));
            }
            streams.add(response);
            response.closeHandler(v -> detach(response));
        }

        private synchronized void detach(HttpServerResponse response) {
            streams.remove(response);
        }

        synchronized void push(JsonObject message) {
            log.add(message.encode());
            String event = event(log.size(), log.get(log.size() - 1));
            streams.forEach(stream -> stream.write(event));
        }

        synchronized int openStreams() {
            return streams.size();
        }

        private synchronized void endStreams() {
            new ArrayList<>(streams).forEach(stream -> {
                if (!stream.ended()) {
                    stream.end();
                }
            });
            streams.clear();
        }

        private static String event(int id, String data) {
            return "id: " + id + "\nevent: message\ndata: " + data + "\n\n";
        }
    }
}
