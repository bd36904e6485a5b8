package io.agentfuse.gateway.upstream;

/**
 * What an upstream sent is not valid HTTP: a status line or head that cannot be read, a chunk size
 * that is not hexadecimal, a line too long. Marked by {@link FramingCheck} on the connection, so
 * that the call fails as a malformed answer (the upstream answered, wrongly) rather than a broken
 * connection; the connection is closed, never reused.
 */
final class NotHttpException extends RuntimeException {

    NotHttpException(Throwable cause) {
        super(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(), cause, false, false);
    }
}
