package io.agentfuse.gateway.dialect;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The last few secrets an authentication minted or was handed and sent (a Vertex AI access token, an
 * AWS session token), newest first, for its {@link UpstreamAuth#secretsSent}: a provider's error that
 * echoes one reaches no caller and no log with it, whether it is the one in use or one a call still
 * in flight was sent with before it was replaced.
 *
 * <p>Thread-safe: read without a lock (one volatile read), replaced whole under {@code this}; sending
 * the same secret again costs one read.
 */
public final class RecentSecrets {

    /** How many of the secrets sent last are kept: the current one, and a few it replaced. */
    public static final int KEPT = 4;

    private volatile List<String> sent = List.of();

    /** Keeps {@code secret}, about to be sent, among the recent ones; a {@code null} or empty one is none. */
    public void sending(String secret) {
        List<String> recent = sent;
        if (secret == null || secret.isEmpty() || !recent.isEmpty() && recent.get(0).equals(secret)) {
            return;
        }
        synchronized (this) {
            List<String> next = new ArrayList<>(KEPT);
            next.add(secret);
            for (String older : sent) {
                if (next.size() < KEPT && !older.equals(secret)) {
                    next.add(older);
                }
            }
            sent = List.copyOf(next);
        }
    }

    /** The secrets sent last, newest first; at most {@link #KEPT}. */
    public Collection<String> sent() {
        return sent;
    }
}
