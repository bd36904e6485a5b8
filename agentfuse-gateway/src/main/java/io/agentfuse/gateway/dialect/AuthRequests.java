package io.agentfuse.gateway.dialect;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Sends the requests an authentication makes of its own (Vertex AI's token requests to a service
 * account's {@code token_uri}) the way the provider calls go: on the gateway's one client stack,
 * through the egress proxy it picks for the URL ({@code server.egressProxy}, {@code HTTPS_PROXY},
 * {@code NO_PROXY}) with the proxy's login, for {@code CONNECT} tunnels as for proxied requests. A
 * second client beside it (the JDK's {@code HttpURLConnection}) sent no Basic login through a tunnel
 * and could not answer a proxy's 407 to a streamed {@code POST}, and its 407 was then taken for the
 * token endpoint's refusal of the service account.
 *
 * <p>An answer is any status the token endpoint gives, errors included. A proxy that refuses the
 * login (407) or cannot be reached fails the request with {@link EgressProxyException}, naming the
 * proxy without its password; other transport failures with the transport's exception.
 *
 * <p>Thread-safe. Its futures complete on an event loop: a caller that waits for one must not be on one.
 */
@FunctionalInterface
public interface AuthRequests {

    /** Sends {@code request}; the answer is read whole, within {@link Request#MAX_ANSWER_BYTES}. */
    CompletionStage<Answer> send(Request request);

    /**
     * A request of an authentication.
     *
     * @param method      the HTTP method
     * @param uri         the absolute URL
     * @param headers     its headers besides {@code Host} and {@code Content-Length}
     * @param body        its body, empty for none
     * @param connectTimeout limit for opening the connection (the proxy's, through one)
     * @param idleTimeout limit for waiting on the answer's next bytes
     */
    record Request(String method, URI uri, Map<String, String> headers, byte[] body, Duration connectTimeout,
                   Duration idleTimeout) {

        /** A token endpoint answers a few hundred bytes: a longer answer is not read. */
        public static final int MAX_ANSWER_BYTES = 1024 * 1024;

        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(uri, "uri");
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
        }
    }

    /**
     * An answer, read whole.
     *
     * @param status  its status
     * @param reason  its reason phrase, empty when it gave none
     * @param headers its headers in the order they came, names as sent
     * @param body    its body
     */
    record Answer(int status, String reason, List<Map.Entry<String, String>> headers, byte[] body) {

        public Answer {
            Objects.requireNonNull(reason, "reason");
            headers = List.copyOf(headers);
            Objects.requireNonNull(body, "body");
        }

        /** The first value of the header {@code name} (any case); {@code null} without one. */
        public String header(String name) {
            for (Map.Entry<String, String> header : headers) {
                if (header.getKey().equalsIgnoreCase(name)) {
                    return header.getValue();
                }
            }
            return null;
        }
    }
}
