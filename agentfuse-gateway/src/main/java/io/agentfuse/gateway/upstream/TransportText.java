package io.agentfuse.gateway.upstream;

import java.io.IOException;
import java.util.Locale;

/**
 * The one place where a transport failure becomes the words a caller reads, in an error body or a
 * stream's error event: what happened to the connection (reset, refused, timed out, closed), never
 * the transport's own text ({@code io_uring connect(..) failed with error(-111)}), which stays in the
 * exception for the logs. Other failures keep their message: the gateway wrote it for callers.
 *
 * <p>Stateless and thread-safe. {@code TransportText.of(failure)}
 */
public final class TransportText {

    private TransportText() {
    }

    /** What {@code failure} means to a caller. */
    public static String of(Throwable failure) {
        if (failure instanceof UpstreamConnectionException) {
            return failure.getMessage(); // written in plain words by UpstreamFailures
        }
        if (failure instanceof IOException) {
            return "the connection to the provider " + plainWords(failure);
        }
        String message = failure.getMessage();
        return message == null || message.isBlank() ? "an unexpected failure" : message;
    }

    /** What a transport failure was, in plain words: reset, refused, timed out, closed, or broken. */
    static String plainWords(Throwable cause) {
        String text = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
        if (text.contains("reset") || text.contains("-104")) {
            return "was reset by the provider";
        }
        if (text.contains("refused") || text.contains("-111")) {
            return "was refused";
        }
        if (text.contains("timed out") || text.contains("-110")) {
            return "timed out";
        }
        if (text.contains("broken pipe") || text.contains("(-32)")) {
            return "was closed by the provider while sending";
        }
        return "broke";
    }
}
