package io.agentfuse.core.breaker;

import java.util.function.Function;

/**
 * What {@link CircuitBreaker#tryExecute} returns: the call's answer, or the breaker's
 * {@link Rejection} when the call was not made. Typed, so the non-throwing path needs no
 * {@code Object} and no cast.
 *
 * <pre>{@code
 * CallResult<String> page = breaker.tryExecute(() -> search("agents"));
 * String text = page.orElse(rejected -> "search is unavailable: " + rejected.message());
 * }</pre>
 *
 * @param <T> the answer's type
 */
public sealed interface CallResult<T> {

    /** The call was made and returned {@code value}. */
    record Answered<T>(T value) implements CallResult<T> {
    }

    /** The call was not made: the breaker rejected it. */
    record Rejected<T>(Rejection rejection) implements CallResult<T> {
    }

    /** Whether the breaker rejected the call. */
    default boolean isRejected() {
        return this instanceof Rejected<T>;
    }

    /** The answer, or what {@code whenRejected} makes of the rejection. */
    default T orElse(Function<? super Rejection, ? extends T> whenRejected) {
        if (this instanceof Answered<T> answered) {
            return answered.value();
        }
        return whenRejected.apply(((Rejected<T>) this).rejection());
    }
}
