package io.agentfuse.gateway.dialect;

/**
 * The egress proxy stopped a request an authentication made of its own ({@link AuthRequests}): it
 * refused the gateway's login ({@code 407}), refused the tunnel, or could not be reached. The message
 * names the proxy as {@code http://***@host:port} (never its login) and the key that configures it,
 * so that a caller reads that the proxy is to check, not the provider's credentials.
 *
 * <p>Unchecked on purpose: google-auth-library retries a token request that fails with an
 * {@link java.io.IOException} three times, sleeping a second and more between them, and reports the
 * last failure as the token endpoint's. A proxy's refusal is the gateway's configuration and a proxy
 * that is away is the gateway's retry policy's to judge: neither is retried there.
 *
 * <p>Immutable; no stack trace.
 */
public final class EgressProxyException extends RuntimeException {

    private final boolean loginRefused;

    /**
     * @param message      what the proxy did, naming it without its login
     * @param loginRefused whether it refused the gateway's login (407): the configuration, not worth a retry
     * @param cause        the transport's exception, or {@code null}
     */
    public EgressProxyException(String message, boolean loginRefused, Throwable cause) {
        super(message, cause, false, false);
        this.loginRefused = loginRefused;
    }

    /** Whether the proxy refused the gateway's login (407), rather than the tunnel or the connection. */
    public boolean loginRefused() {
        return loginRefused;
    }
}
