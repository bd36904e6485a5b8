package io.agentfuse.gateway.mcp;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which caller ({@link CallerIdentity}) opened each MCP session: a session id the server handed
 * out through the proxy belongs to the caller whose {@code initialize} got it, and only that
 * caller may use it ({@code POST}, the {@code GET} stream) or end it ({@code DELETE}). A session
 * id the proxy did not see handed out is nobody's: requests with it are refused as an unknown
 * session (404), which MCP clients answer by opening a new one.
 *
 * <p>Memory is bounded, and no caller can make the proxy forget another caller's sessions, as
 * the budget ledger forgets only the windows a caller named itself: a caller holds at most
 * {@value #MAX_SESSIONS_PER_CALLER} sessions, and one more makes it lose its own oldest. When
 * {@value #MAX_SESSIONS} sessions are remembered in all, a new one makes the caller that holds
 * the most lose its oldest. Callers that can mint identities at will (a credential the gateway
 * does not check) can still crowd that bound; with client keys ({@code clients:}) they cannot.
 *
 * <p>Thread-safe: one lock; a claim touches two maps, and a full table scans the callers once.
 */
final class SessionOwners {

    static final int MAX_SESSIONS = 10_000;
    static final int MAX_SESSIONS_PER_CALLER = 1_000;

    private final Map<String, String> owners = new HashMap<>();
    /** Each caller's sessions, oldest first. */
    private final Map<String, Set<String>> byCaller = new HashMap<>();

    /** Records that {@code session} of {@code scope} (a server, or the aggregate) is {@code caller}'s, unless it is someone's already. */
    synchronized void claim(String scope, String session, String caller) {
        String key = key(scope, session);
        if (owners.containsKey(key)) {
            return;
        }
        Set<String> own = byCaller.computeIfAbsent(caller, name -> new LinkedHashSet<>());
        if (own.size() >= MAX_SESSIONS_PER_CALLER) {
            forget(own.iterator().next());
        } else if (owners.size() >= MAX_SESSIONS) {
            forget(largestHolding().iterator().next());
        }
        owners.put(key, caller);
        own.add(key);
    }

    /** Whether {@code caller} opened {@code session} of {@code scope}. */
    synchronized boolean owns(String scope, String session, String caller) {
        return caller.equals(owners.get(key(scope, session)));
    }

    /** Forgets {@code session}: it was ended. */
    synchronized void release(String scope, String session) {
        forget(key(scope, session));
    }

    private void forget(String key) {
        String caller = owners.remove(key);
        if (caller != null) {
            Set<String> own = byCaller.get(caller);
            own.remove(key);
            if (own.isEmpty()) {
                byCaller.remove(caller);
            }
        }
    }

    /** The sessions of the caller that holds the most. */
    private Set<String> largestHolding() {
        Set<String> largest = Set.of();
        for (Set<String> own : byCaller.values()) {
            if (own.size() > largest.size()) {
                largest = own;
            }
        }
        return largest;
    }

    private static String key(String scope, String session) {
        return scope + '\n' + session;
    }
}
