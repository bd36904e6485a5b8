package io.agentfuse.redis;

import io.lettuce.core.RedisCommandExecutionException;

import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What a failed call to Redis says about Redis. No answer (a timeout, a lost or refused connection)
 * and an error reply that speaks of the whole server — {@code LOADING}, {@code BUSY},
 * {@code READONLY}, {@code MISCONF}, {@code OOM}, a failover or cluster state, credentials — mean
 * Redis cannot take calls now: the budgets follow their loss rule until it can. Any other error
 * reply ({@code WRONGTYPE}, {@code ERR}: a key holds what no script of ours wrote, an argument it
 * cannot take) is Redis refusing that one call: repeating it would be refused again, and Redis goes
 * on deciding every other. Pure functions.
 */
final class RedisRefusal {

    /** The error codes of a server that cannot take calls now, whatever the call. */
    private static final Set<String> SERVER_STATES = Set.of("LOADING", "BUSY", "READONLY", "MISCONF", "OOM",
            "MASTERDOWN", "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN", "MOVED", "ASK", "NOAUTH", "WRONGPASS", "NOPERM");
    /** The longest part of Redis's words quoted in a log line. */
    private static final int MAX_QUOTED = 160;

    private RedisRefusal() {
    }

    /**
     * Redis's words when {@code failure} is its refusal of this one call (an error reply that is
     * not about the whole server), shortened to one line; {@code null} when Redis did not answer or
     * cannot take calls now.
     */
    static String ofOneCall(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (!(cause instanceof RedisCommandExecutionException) || cause.getMessage() == null) {
            return null;
        }
        String words = cause.getMessage().strip();
        int space = words.indexOf(' ');
        if (SERVER_STATES.contains(space < 0 ? words : words.substring(0, space))) {
            return null;
        }
        String line = words.lines().findFirst().orElse("");
        return line.length() <= MAX_QUOTED ? line : line.substring(0, MAX_QUOTED) + "…";
    }

    /** The kind of a refusal {@link #ofOneCall} quoted: its error code (its first word). */
    static String code(String refusal) {
        int space = refusal.indexOf(' ');
        return space < 0 ? refusal : refusal.substring(0, space);
    }
}
