package io.agentfuse.gateway.dialect;

import java.util.List;

/**
 * A request or answer that cannot be carried over to the other dialect without changing its
 * meaning (for example {@code n > 1}, {@code logprobs}, audio, or server-side tools). A fallback
 * step whose provider speaks the other dialect is skipped with {@link #getMessage()} as reason.
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * try {
 *     body = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5");
 * } catch (UntranslatableException e) {
 *     skipped.add(step + ": " + e.getMessage());
 * }
 * }</pre>
 */
public final class UntranslatableException extends RuntimeException {

    /** How the message of every such exception begins (a skip is told apart by its type, not by this text). */
    private static final String PREFIX = "cannot translate: ";

    private final List<String> reasons;

    /** @param reasons why, one entry per feature that cannot be translated; not empty */
    public UntranslatableException(List<String> reasons) {
        super(PREFIX + String.join("; ", reasons), null, false, false);
        if (reasons.isEmpty()) {
            throw new IllegalArgumentException("reasons must not be empty");
        }
        this.reasons = List.copyOf(reasons);
    }

    /** An exception with a single reason. */
    public UntranslatableException(String reason) {
        this(List.of(reason));
    }

    /** Every reason, in the order found. */
    public List<String> reasons() {
        return reasons;
    }
}
