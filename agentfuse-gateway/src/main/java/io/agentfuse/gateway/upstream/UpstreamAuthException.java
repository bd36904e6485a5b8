package io.agentfuse.gateway.upstream;

/**
 * A provider answered 401 or 403: it refused the key the gateway is configured with (the
 * caller's own credentials are never forwarded, so this is never the caller's fault). Not an
 * {@link io.agentfuse.core.HttpStatusException}, so that it is not passed through as an upstream
 * 4xx: {@link io.agentfuse.core.OutcomeClassifier} counts it as {@code ERROR} — not retried (the
 * same key fails again), fallen back from; a chain that ends with it is answered 502
 * {@code upstream_auth_failed}, naming the provider.
 *
 * <p>Immutable; no stack trace.
 *
 * <pre>{@code
 * throw new UpstreamAuthException("anthropic", 401);
 * }</pre>
 */
public final class UpstreamAuthException extends RuntimeException {

    private final String provider;
    private final int status;

    /**
     * @param provider the provider's configured name
     * @param status   401 or 403
     */
    public UpstreamAuthException(String provider, int status) {
        super("provider " + provider + " refused the gateway's API key (HTTP " + status
                + "): check providers." + provider + ".apiKey", null, false, false);
        this.provider = provider;
        this.status = status;
    }

    /** The provider's configured name. */
    public String provider() {
        return provider;
    }

    /** The HTTP status, 401 or 403. */
    public int status() {
        return status;
    }
}
