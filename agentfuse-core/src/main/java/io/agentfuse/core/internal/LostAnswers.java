package io.agentfuse.core.internal;

/**
 * The one way an answer that nobody will read is disposed of: one that lost a hedge race, or
 * arrived after its caller gave up. An answer that holds a resource (a stream, as an
 * {@link AutoCloseable}) is closed, so that it does not hold its connection until a timeout; any
 * other is dropped. Not part of the public API.
 */
public final class LostAnswers {

    private LostAnswers() {
    }

    /** Closes {@code answer} if it is {@link AutoCloseable}; a failure to close it is ignored (nobody waits for it). */
    public static void close(Object answer) {
        if (answer instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // nobody waits for this answer: a failure to close it changes nothing for the call
            }
        }
    }
}
