package io.agentfuse.gateway.dialect;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

import java.net.URI;
import java.util.Collection;
import java.util.List;
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
 * signature) runs on the {@linkplain Means#blocking blocking executor} the client hands over, never
 * on an event loop; a request of its own (a token fetch) goes out as the provider calls do
 * ({@linkplain Means#requests the same client stack and egress proxy}).
 */
public interface UpstreamAuth {

    /**
     * The headers to add to {@code request}, which must then go out exactly as given (a signature
     * covers it). Fails with {@link CredentialsRefusedException} when the provider's identity
     * service refuses the configured credentials, with the transport's exception when it cannot be reached.
     */
    CompletionStage<Map<String, String>> headers(Outgoing request, Means means);

    /**
     * The headers when they do not depend on the request, so that the client builds them in once;
     * {@code null} when each request is authenticated by {@link #headers}.
     */
    default Map<String, String> fixedHeaders() {
        return null;
    }

    /** What this authentication sends and where it is configured, for the message of a refusal. */
    Credential credential();

    /**
     * The secrets this authentication has sent lately, which no caller and no log may read though a
     * provider echoes them (a broken upstream, or a proxy in front of it, may echo a request's
     * headers): by default the values of its {@linkplain #fixedHeaders fixed headers}, without a
     * {@code Bearer} prefix; a scheme that mints what it sends (an access token) adds what it minted
     * and sent lately, a call still in flight included. Never blocks.
     */
    default Collection<String> secretsSent() {
        Map<String, String> fixed = fixedHeaders();
        return fixed == null ? List.of() : fixed.values().stream().map(UpstreamAuth::withoutScheme).toList();
    }

    /** {@code value}, an {@code Authorization} header's or another's, without its {@code Bearer} prefix. */
    private static String withoutScheme(String value) {
        String bearer = "Bearer ";
        return value.regionMatches(true, 0, bearer, 0, bearer.length()) ? value.substring(bearer.length()) : value;
    }

    /**
     * The provider refused a call's credentials ({@link Dialect#refusesCredentials}) with
     * {@code status}, {@code headers} and {@code body}: an authentication that caches what it sends
     * (an access token) drops it here when the answer says it is no longer valid, so that the next
     * call gets a fresh one. Nothing by default; called on an event loop, so it must not block.
     */
    default void refused(int status, MultiMap headers, String body) {
    }

    /** Authentication by headers that are the same for every request, sending {@code credential}. */
    static UpstreamAuth fixed(Map<String, String> headers, Credential credential) {
        Map<String, String> copy = Map.copyOf(headers);
        Objects.requireNonNull(credential, "credential");
        CompletableFuture<Map<String, String>> done = CompletableFuture.completedFuture(copy);
        List<String> secrets = copy.values().stream().map(UpstreamAuth::withoutScheme).toList();
        return new UpstreamAuth() {
            @Override
            public CompletionStage<Map<String, String>> headers(Outgoing request, Means means) {
                return done;
            }

            @Override
            public Map<String, String> fixedHeaders() {
                return copy;
            }

            @Override
            public Credential credential() {
                return credential;
            }

            @Override
            public Collection<String> secretsSent() {
                return secrets;
            }

            @Override
            public String toString() {
                return "UpstreamAuth.fixed" + copy.keySet(); // names only: the values are secrets
            }
        };
    }

    /**
     * What an authentication sends, in words ({@code "API key"}, {@code "AWS SigV4 signature"}), and
     * what to check when the provider refuses it ({@code "providers.openai.apiKey"}): configuration
     * keys and sources, never a secret's value.
     */
    record Credential(String sent, String check) {

        public Credential {
            Objects.requireNonNull(sent, "sent");
            Objects.requireNonNull(check, "check");
        }

        /** The {@code apiKey} of {@code provider}. */
        public static Credential apiKey(String provider) {
            return new Credential("API key", "providers." + provider + ".apiKey");
        }
    }

    /**
     * What the upstream client lends an authentication for its work.
     *
     * @param blocking where work that may block runs (Vert.x's workers)
     * @param requests where its own requests go out: the client stack and egress proxy of the provider
     *                 calls ({@code server.egressProxy}, {@code HTTPS_PROXY}, {@code NO_PROXY}), the proxy's login included
     */
    record Means(Executor blocking, AuthRequests requests) {

        public Means {
            Objects.requireNonNull(blocking, "blocking");
            Objects.requireNonNull(requests, "requests");
        }
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
