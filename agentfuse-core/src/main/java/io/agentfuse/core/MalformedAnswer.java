package io.agentfuse.core;

/**
 * Marks a failure as a bad answer of the callee: it answered, but with something that is not a
 * well-formed answer (an HTTP 200 with an empty, truncated or wrong-shaped body). Such a failure
 * is classified {@link Outcome#ERROR} like any other exception, but a {@link io.agentfuse.core.retry.RetryPolicy}
 * retries it whenever it retries {@link Outcome#SERVER_ERROR}: the callee is at fault, as with a 5xx,
 * and the next answer may be whole. Other {@code ERROR}s are retried only where configured.
 *
 * <pre>{@code
 * final class TruncatedAnswerException extends RuntimeException implements MalformedAnswer { ... }
 * }</pre>
 */
public interface MalformedAnswer {
}
