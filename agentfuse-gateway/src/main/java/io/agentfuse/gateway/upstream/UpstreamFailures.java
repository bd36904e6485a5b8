package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.CredentialsRefusedException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.vertx.core.MultiMap;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.StreamResetException;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;

/**
 * The one place where transport failures of provider calls become the exceptions that
 * {@link io.agentfuse.core.OutcomeClassifier} understands: non-2xx answers become
 * {@link UpstreamStatusException} (with the answer's retry hints — {@code Retry-After},
 * {@code retry-after-ms}, the rate-limit headers, {@code x-should-retry} — and its content type),
 * except a refusal of the gateway's credentials ({@link Dialect#refusesCredentials}: 401/403, Gemini's
 * invalid key), which becomes an {@link UpstreamAuthException} naming what the provider's
 * authentication sent ({@link io.agentfuse.gateway.dialect.UpstreamAuth#credential}, which hears of the
 * refusal: a cached token is dropped), as does a refusal by the provider's
 * identity service ({@link CredentialsRefusedException}) and the egress proxy's refusal of the gateway's
 * login, for a call or its authentication's own request ({@link EgressProxyException}, {@link ProxyRefusals},
 * named as the proxy's; a proxy that refused the tunnel or could not be reached is an
 * {@link UpstreamConnectionException} naming it); and except an answer that the provider serves no model
 * of the name sent ({@link Dialect#refusesModel}: a retired model), which becomes an
 * {@link UpstreamModelRefusedException}, fallen back from.
 * The provider's dialect classifies the
 * answer ({@link Dialect#errorOutcome}: Bedrock's exception names, Google's statuses); where it
 * judges otherwise than the status alone would, the exception carries the status core's classifier
 * reads as that outcome ({@link #judgedStatus}), and the provider's own in
 * {@link UpstreamStatusException#providerStatus()}. An answer that is not valid HTTP
 * ({@link NotHttpException}) a {@link MalformedAnswerException} (the provider answered, wrongly);
 * connections that were closed, reset or failed (a TLS handshake, an HTTP/2 stream reset)
 * {@link UpstreamConnectionException}; refused connections and connect timeouts stay the
 * {@link ConnectException}s they are. What of the provider's text they quote is cleared of the
 * gateway's credentials ({@link Redaction}). Stateless.
 */
final class UpstreamFailures {

    /** The one content coding the gateway asks providers for and reads. */
    static final String IDENTITY = "identity";

    private UpstreamFailures() {
    }

    /**
     * Checks that an answer of {@code provider} is not coded ({@code contentEncoding} absent or
     * {@link #IDENTITY}). The gateway asks for identity and inflates nothing a provider sends (its
     * limits count the bytes it reads); a coded error is not passed back either, as its bytes would
     * not match the headers the caller gets.
     *
     * @throws MalformedAnswerException when it is coded (gzip, br): a failed attempt, as any unreadable answer
     */
    static void requireUncoded(ProviderEndpoint provider, String contentEncoding) {
        if (contentEncoding == null || contentEncoding.isBlank() || contentEncoding.trim().equalsIgnoreCase(IDENTITY)) {
            return;
        }
        throw new MalformedAnswerException("provider " + provider.name() + " answered with Content-Encoding "
                + AnswerShape.excerpt(contentEncoding) + ", though the gateway asks for identity: it reads no coded answer");
    }

    /**
     * Checks the head of an answer of {@code provider} on {@code http} before its body is read: that it
     * is not the egress proxy's refusal of the gateway's login ({@link UpstreamHttp#refusalIn}; its body,
     * the proxy's page, is not read: a proxy may close the connection right after it), and that it is
     * uncoded ({@link #requireUncoded}).
     *
     * @throws UpstreamAuthException    when the egress proxy refused the gateway's login
     * @throws MalformedAnswerException when the answer is coded
     */
    static void checkHead(ProviderEndpoint provider, UpstreamHttp http, HttpClientResponse response) {
        EgressProxyException refused = http.refusalIn(response);
        if (refused != null) { // always a refused login (see UpstreamHttp#refusalIn)
            throw (UpstreamAuthException) ofProxy(provider, refused);
        }
        requireUncoded(provider, response.getHeader(HttpHeaders.CONTENT_ENCODING));
    }

    /** The exception a non-2xx answer ({@code status}, {@code headers}, {@code body}) of {@code provider} ends with. */
    static RuntimeException status(ProviderEndpoint provider, int status, MultiMap headers, String body) {
        Dialect dialect = provider.dialect();
        if (dialect.refusesCredentials(status, body)) {
            provider.auth().refused(status, headers, body); // a cached token the answer calls invalid is dropped
            return new UpstreamAuthException(provider.name(), status, provider.auth().credential(), Redaction.of(provider, headers));
        }
        int judged = judgedStatus(status, body, dialect.errorOutcome(status, headers, body));
        String told = status / 100 == 3 ? UpstreamHttp.redirectNote(headers.get("location"), "the provider's baseUrl") : Redaction.of(provider, body);
        UpstreamStatusException answer = UpstreamStatusException.builder(judged).providerStatus(status).provider(provider.name(), dialect)
                .body(told).retryHints(headers).answerHeaders(Redaction.of(provider, headers))
                .contentType(headers.get("content-type")).build();
        return dialect.refusesModel(status, headers, body) ? new UpstreamModelRefusedException(answer) : answer;
    }

    /**
     * {@code status} when core's classifier reads it (with {@code body}) as {@code outcome}, else the
     * status it reads as that outcome: 429 RATE_LIMITED, 529 OVERLOADED, 408 TIMEOUT, 500 SERVER_ERROR,
     * 400 CLIENT_ERROR (Bedrock's {@code ModelNotReadyException} is a 429 that means OVERLOADED).
     */
    static int judgedStatus(int status, String body, Outcome outcome) {
        if (OutcomeClassifier.ofStatus(status, body) == outcome) {
            return status;
        }
        return switch (outcome) {
            case RATE_LIMITED -> 429;
            case OVERLOADED -> 529;
            case TIMEOUT -> 408;
            case SERVER_ERROR -> 500;
            case CLIENT_ERROR -> 400;
            default -> status;
        };
    }

    /**
     * The exception a call to {@code provider} ends with when its connection or the client failed with
     * {@code cause}. Its message reaches callers (in error bodies and stream error events), so it says
     * what happened in plain words, never the transport's own text ({@code io_uring read(..) failed
     * with error(-104)}), which stays in the cause for the logs.
     */
    static Throwable of(ProviderEndpoint provider, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof CredentialsRefusedException refused) {
            return new UpstreamAuthException(provider.name(), refused.getMessage());
        }
        if (cause instanceof EgressProxyException proxy) {
            return ofProxy(provider, proxy);
        }
        for (Throwable at = cause; at != null; at = at.getCause()) {
            if (at instanceof NotHttpException notHttp) {
                return new MalformedAnswerException("provider " + provider.name() + " sent an answer that is not valid HTTP: "
                        + notHttp.getMessage());
            }
        }
        if (cause instanceof ConnectException) {
            return cause;
        }
        String connectionTo = "connection to provider " + provider.name();
        if (cause instanceof IOException || cause instanceof StreamResetException) {
            return new UpstreamConnectionException(connectionTo + " " + TransportText.plainWords(cause), cause);
        }
        if (cause.getClass() == VertxException.class || cause instanceof io.vertx.core.http.HttpClosedException) {
            return new UpstreamConnectionException(connectionTo + " was closed", cause);
        }
        return cause;
    }

    /**
     * What the egress proxy did to a call of {@code provider}, named as the proxy's and the provider's: a
     * refused login is the gateway's configuration ({@link UpstreamAuthException}), anything else a connection failure.
     */
    private static Throwable ofProxy(ProviderEndpoint provider, EgressProxyException proxy) {
        String message = "provider " + provider.name() + ": " + proxy.getMessage();
        return proxy.loginRefused() ? new UpstreamAuthException(provider.name(), message)
                : new UpstreamConnectionException(message, proxy);
    }

    /**
     * The exception a stream of {@code provider} ends with when its body cannot be read on: an event
     * over {@code maxEventBytes} ({@link UpstreamBodyTooLargeException}), bytes its framing cannot
     * read ({@link MalformedAnswerException}, naming the provider); anything else as it is.
     */
    static RuntimeException ofReading(ProviderEndpoint provider, RuntimeException broken, int maxEventBytes) {
        if (broken instanceof io.agentfuse.gateway.sse.SseEventTooLongException) {
            return new UpstreamBodyTooLargeException("an event of provider " + provider.name() + " is longer than "
                    + maxEventBytes + " bytes (server.maxSseEvent); reading stopped");
        }
        if (broken instanceof MalformedAnswerException malformed) {
            return new MalformedAnswerException("provider " + provider.name() + " streamed "
                    + Redaction.of(provider, malformed.getMessage()));
        }
        return broken;
    }
}
