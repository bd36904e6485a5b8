package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.Dialect;

/**
 * How an answer reaches its caller: complete, or streamed — with the provider's events passed on as
 * they are to a caller of {@code shownAsIs} (its own dialect, the relay not re-encoding:
 * {@link io.agentfuse.gateway.dialect.StreamTranslator}), or re-encoded ({@code shownAsIs} null),
 * which shows the caller no reasoning ({@link AnswerOpening}).
 */
record Delivery(boolean stream, Dialect shownAsIs) {

    /** A complete answer. */
    static final Delivery COMPLETE = new Delivery(false, null);

    /** A stream to a caller of {@code caller}, its events re-encoded when {@code reencoded}. */
    static Delivery stream(Dialect caller, boolean reencoded) {
        return new Delivery(true, reencoded ? null : caller);
    }
}
