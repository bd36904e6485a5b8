package io.agentfuse.gateway.dialect;

import io.vertx.core.buffer.Buffer;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * How the gateway authenticates itself to one configured provider: fixed headers made once from its
 * key ({@link #fixed}: {@code Authorization: Bearer}, {@code x-api-key}, {@code api-key},
 * {@code x-goog-api-key}), or headers computed for each request, over its final form, when the
 * provider's scheme needs that: an AWS SigV4 signature over the method, URL, headers and body bytes
 * (Bedrock), an OAuth2 access token fetched and refreshed from a service account (Vertex AI).
 *
 * <p>Made once per provider by its {@link Dialect#upstreamAuth}; thread-safe. Computed headers may
 * complete on another thread: the upstream client goes back to the call's event loop before it sends.
 * Work that may block (a token endpoint, the AWS SDK's credential chain) or grows with the body (a
 * signature) runs on the {@code blocking} executor the client hands over, never on an event loop.
 */
public interface UpstreamAuth {

    /** No authentication (a local provider without a key). */
    UpstreamAuth NONE = fixed(Map.of());

    /**
     * The headers to add to {@code request}, which must then go out exactly as given (a signature
     * covers it). Fails with {@link CredentialsRefusedException} when the provider's identity
     * service refuses the configured credentials, with the transport's exception when it cannot be reached.
     */
    CompletionStage<Map<String, String>> headers(Outgoing request, Executor blocking);

    /**
     * The headers when they do not depend on the request, so that the client builds them in once;
     * {@code null} when each request is authenticated by {@link #headers}.
     */
    default Map<String, String> fixedHeaders() {
        return null;
    }

    /** Authentication by headers that are the same for every request. */
    static UpstreamAuth fixed(Map<String, String> headers) {
        Map<String, String> copy = Map.copyOf(headers);
        CompletableFuture<Map<String, String>> done = CompletableFuture.completedFuture(copy);
        return new UpstreamAuth() {
            @Override
            public CompletionStage<Map<String, String>> headers(Outgoing request, Executor blocking) {
                return done;
            }

            @Override
            public Map<String, String> fixedHeaders() {
                return copy;
            }

            @Override
            public String toString() {
                return "UpstreamAuth.fixed" + copy.keySet(); // names only: the values are secrets
            }
        };
    }

    /**
     * A request as it will go out, for a scheme that signs it.
     *
     * @param method  the HTTP method
     * @param uri     the absolute URL, host and port included
     * @param headers every header it goes out with besides {@code Host} and {@code Content-Length}
     * @param body    the final body bytes
     */
    record Outgoing(String method, URI uri, Map<String, String> headers, Buffer body) {

        public Outgoing {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(uri, "uri");
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
        }
    }
}
