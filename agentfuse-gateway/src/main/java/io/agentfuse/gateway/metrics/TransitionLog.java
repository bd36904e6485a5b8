package io.agentfuse.gateway.metrics;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One log line per breaker transition (docs/design.md §9), with the breaker, the two states and the reason
 * as key-value pairs too (fields of their own in JSON logs): a breaker that opens is a warning,
 * every other change is information. A breaker's name (a tool name from any caller) and a reason
 * (another instance's, read from Redis) are input: control characters are written escaped
 * ({@code \n}, {@code \u001b}) and each is cut to {@value #MAX_TEXT} characters, so no value can
 * write a line of its own. Thread-safe.
 *
 * <pre>
 * WARN  TransitionLog: breaker model:claude-sonnet-4 CLOSED -> OPEN: consecutive5xx: 3 in a row (threshold 3)
 * </pre>
 */
public final class TransitionLog implements CircuitBreakerListener {

    /** The most characters of a name or reason written. */
    static final int MAX_TEXT = 300;

    private static final Logger LOG = LoggerFactory.getLogger(TransitionLog.class);

    @Override
    public void onStateTransition(StateTransition event) {
        Level level = event.to() == CircuitState.OPEN || event.to() == CircuitState.FORCED_OPEN ? Level.WARN : Level.INFO;
        String breaker = printable(event.breaker());
        String reason = printable(event.reason());
        LOG.atLevel(level)
                .addKeyValue("breaker", breaker)
                .addKeyValue("from", event.from().name())
                .addKeyValue("to", event.to().name())
                .addKeyValue("reason", reason)
                .log("breaker {} {} -> {}: {}", breaker, event.from(), event.to(), reason);
    }

    /** {@code text} with control characters escaped, cut to {@link #MAX_TEXT} characters. */
    static String printable(String text) {
        StringBuilder out = null;
        int length = Math.min(text.length(), MAX_TEXT);
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
            if (control && out == null) {
                out = new StringBuilder(length + 16).append(text, 0, i);
            }
            if (out != null) {
                if (!control) {
                    out.append(c);
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c == '\r') {
                    out.append("\\r");
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        String kept = out != null ? out.toString() : text.substring(0, length);
        return text.length() > MAX_TEXT ? kept + "…" : kept;
    }
}
