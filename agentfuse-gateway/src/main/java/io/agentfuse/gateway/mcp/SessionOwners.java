package io.agentfuse.gateway.mcp;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which caller ({@link CallerIdentity}) opened each MCP session: a session id the server handed
 * out through the proxy belongs to the caller whose {@code initialize} got it, and only that
 * caller may use it ({@code POST}, the {@code GET} stream) or end it ({@code DELETE}). A session
 * id the proxy did not see handed out is nobody's: requests with it are refused as an unknown
 * session (404), which MCP clients answer by opening a new one. At most {@value #MAX_SESSIONS}
 * sessions are remembered; the oldest is forgotten first. Thread-safe.
 */
final class SessionOwners {

    static final int MAX_SESSIONS = 10_000;

    private final Map<String, String> owners = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    /** Records that {@code session} of {@code scope} (a server, or the aggregate) is {@code caller}'s, unless it is someone's already. */
    synchronized void claim(String scope, String session, String caller) {
        owners.putIfAbsent(key(scope, session), caller);
    }

    /** Whether {@code caller} opened {@code session} of {@code scope}. */
    synchronized boolean owns(String scope, String session, String caller) {
        return caller.equals(owners.get(key(scope, session)));
    }

    /** Forgets {@code session}: it was ended. */
    synchronized void release(String scope, String session) {
        owners.remove(key(scope, session));
    }

    private static String key(String scope, String session) {
        return scope + '\n' + session;
    }
}
