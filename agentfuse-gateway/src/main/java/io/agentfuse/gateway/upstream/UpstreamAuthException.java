package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.AnsweredFailure;
import io.agentfuse.gateway.dialect.UpstreamAuth;

import java.util.List;
import java.util.Map;

/**
 * A provider refused the credentials the gateway is configured with (401 or 403, or the provider's
 * own way of saying so, {@link io.agentfuse.gateway.dialect.Dialect#refusesCredentials}; or its token
 * endpoint refused them): the key, signature or token the gateway sent (the
 * caller's own credentials are never forwarded, so this is never the caller's fault). Not an
 * {@link io.agentfuse.core.HttpStatusException}, so that it is not passed through as an upstream
 * 4xx: {@link io.agentfuse.core.OutcomeClassifier} counts it as {@code ERROR} — not retried (the
 * same key fails again), fallen back from; a chain that ends with it is answered 502
 * {@code upstream_auth_failed}, naming the provider.
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * throw new UpstreamAuthException("anthropic", 401, UpstreamAuth.Credential.apiKey("anthropic"));
 * }</pre>
 */
public final class UpstreamAuthException extends RuntimeException implements AnsweredFailure {

    private final String provider;
    private final int status;
    /** Whether the provider itself answered the refusal (else its identity service or the egress proxy). */
    private final boolean providerAnswered;
    private final List<Map.Entry<String, String>> answerHeaders;

    /**
     * A refusal of the provider's {@code apiKey}.
     *
     * @param provider the provider's configured name
     * @param status   the status of the refusal: 401 or 403 (Gemini refuses a key with 400)
     */
    public UpstreamAuthException(String provider, int status) {
        this(provider, status, UpstreamAuth.Credential.apiKey(provider));
    }

    /**
     * A refusal of {@code credential}, the provider's authentication (a key, a SigV4 signature, an
     * access token), named with what to check in its message.
     *
     * @param provider   the provider's configured name
     * @param status     the status of the refusal: 401 or 403 (Gemini refuses a key with 400)
     * @param credential what the gateway sent
     */
    public UpstreamAuthException(String provider, int status, UpstreamAuth.Credential credential) {
        this(provider, status, credential, List.of());
    }

    /**
     * A refusal of {@code credential} in an answer with {@code answerHeaders} (cleared of secrets: its
     * request id is passed on to the caller).
     */
    public UpstreamAuthException(String provider, int status, UpstreamAuth.Credential credential,
                                 List<Map.Entry<String, String>> answerHeaders) {
        super("provider " + provider + " refused the gateway's " + credential.sent() + " (HTTP " + status
                + "): check " + credential.check(), null, false, false);
        this.provider = provider;
        this.status = status;
        this.providerAnswered = true;
        this.answerHeaders = List.copyOf(answerHeaders);
    }

    /**
     * The provider's identity service refused the gateway's credentials (a token endpoint, the AWS
     * credential chain) before the provider was asked.
     *
     * @param provider the provider's configured name
     * @param message  what was refused, naming no secret
     */
    public UpstreamAuthException(String provider, String message) {
        super(message, null, false, false);
        this.provider = provider;
        this.status = 401;
        this.providerAnswered = false;
        this.answerHeaders = List.of();
    }

    /** The provider's configured name. */
    public String provider() {
        return provider;
    }

    /** The refusal's headers, cleared of secrets; empty for a refusal by the identity service or the egress proxy. */
    @Override
    public List<Map.Entry<String, String>> answerHeaders() {
        return answerHeaders;
    }

    /** The HTTP status, 401 or 403 (401 for a refusal by the identity service); a 400 for Gemini's invalid key. */
    public int status() {
        return status;
    }

    @Override
    public String refusalNote() {
        return providerAnswered ? "HTTP " + status + " credentials refused" : "credentials refused";
    }
}
