package io.agentfuse.gateway.dialect;

/**
 * A provider's identity service refused the credentials the gateway is configured with, before any
 * model was asked: a service account the token endpoint does not know, a revoked key, no credentials
 * in the AWS SDK's default chain. Like a 401 from the provider itself, it is the gateway's
 * configuration, never the caller's request: not retried (the same credentials fail again), fallen
 * back from. The message names what was refused, never a secret.
 *
 * <p>Immutable; no stack trace.
 */
public final class CredentialsRefusedException extends RuntimeException {

    /** @param message what was refused and where to look in the configuration, without secrets */
    public CredentialsRefusedException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
