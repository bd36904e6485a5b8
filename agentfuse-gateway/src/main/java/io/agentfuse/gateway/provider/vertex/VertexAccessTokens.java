package io.agentfuse.gateway.provider.vertex;

import com.google.auth.RequestMetadataCallback;
import com.google.auth.http.HttpTransportFactory;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The OAuth2 access tokens of a Vertex AI provider's service account, from its credentials file,
 * through google-auth-library: the library signs the JWT assertion with the file's private key,
 * exchanges it at the file's {@code token_uri}, caches the token and refreshes it before it expires
 * (in the background once it is within a few minutes of its end, in the foreground once it is too
 * close to be used), so a provider call waits for a token only on the first call and after an outage.
 *
 * <p>The library trusts a token until its hour ends, but Vertex may call it invalid earlier (revoked,
 * the account's key deleted). {@link #dropCachedToken()} marks the cached token refused: the next
 * call fetches a new one rather than send it again. One such fetch is in flight at a time, and calls
 * that come while it runs wait for it; a call that finds the token replaced already takes the new one,
 * so a burst of refusals costs one fetch, not one each. A token endpoint that refuses the account fails
 * each call once.
 *
 * <p>Thread-safe; one per provider.
 *
 * <pre>{@code
 * VertexAccessTokens tokens = VertexAccessTokens.fromServiceAccountFile(Path.of("sa.json"), transport);
 * tokens.accessToken(workerExecutor).thenAccept(token -> headers.putAll(VertexGeminiDialect.INSTANCE.authHeaders(token)));
 * }</pre>
 */
public final class VertexAccessTokens {

    /** The scope of Vertex AI's API. */
    public static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    private static final URI AUDIENCE = URI.create("https://aiplatform.googleapis.com/");
    private static final String BEARER = "Bearer ";

    private final GoogleCredentials credentials;
    /** The token Vertex called invalid, until a fetch replaced it; {@code null} when none is. */
    private volatile String refused;
    /** The fetch of a token to replace a refused one, in flight or done; guarded by {@code this}. */
    private CompletableFuture<String> renewal;

    private VertexAccessTokens(GoogleCredentials credentials) {
        this.credentials = credentials;
    }

    /**
     * The tokens of the service account whose credentials file is {@code file}, fetched over {@code transport}.
     *
     * @throws IOException when the file cannot be read or is not a service account's credentials file
     */
    public static VertexAccessTokens fromServiceAccountFile(Path file, HttpTransportFactory transport) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(transport, "transport");
        try (InputStream in = Files.newInputStream(file)) {
            return new VertexAccessTokens(ServiceAccountCredentials.fromStream(in, transport).createScoped(List.of(SCOPE)));
        }
    }

    /**
     * A live access token: the cached one, or a new one fetched on {@code executor} (never on the
     * caller's thread, which may be an event loop) when the cached one is missing, too close to its end
     * or {@linkplain #dropCachedToken() refused}. Fails with the library's {@link IOException} when the
     * token endpoint refuses the account, with {@link io.agentfuse.gateway.dialect.EgressProxyException}
     * when the egress proxy stopped the request (over an {@link EgressTransport}).
     */
    public CompletableFuture<String> accessToken(Executor executor) {
        return cached(executor).thenCompose(token -> token.equals(refused) ? renewed(token, executor)
                : CompletableFuture.completedFuture(token));
    }

    /**
     * Vertex refused the cached token: the next call fetches a new one. Never blocks. Should the library
     * have replaced the token meanwhile, the new one is fetched again: one fetch too many, never a refused
     * token sent twice.
     */
    public void dropCachedToken() {
        AccessToken cached = credentials.getAccessToken();
        if (cached != null) {
            refused = cached.getTokenValue();
        }
    }

    /** The fetch that replaces the refused token {@code stale}: the one in flight, or a new one unless it was replaced already. */
    private synchronized CompletableFuture<String> renewed(String stale, Executor executor) {
        if (renewal == null || renewal.isDone() && stale.equals(refused)) {
            renewal = CompletableFuture.supplyAsync(this::refresh, executor);
        }
        return renewal;
    }

    private String refresh() {
        try {
            credentials.refresh();
        } catch (IOException e) {
            throw new CompletionException(e);
        }
        String fresh = credentials.getAccessToken().getTokenValue();
        refused = null; // the same token again is sent once more: refused again, it is dropped again
        return fresh;
    }

    /** The library's token: cached, or fetched on {@code executor}. */
    private CompletableFuture<String> cached(Executor executor) {
        CompletableFuture<String> token = new CompletableFuture<>();
        credentials.getRequestMetadata(AUDIENCE, executor, new RequestMetadataCallback() {
            @Override
            public void onSuccess(Map<String, List<String>> metadata) {
                List<String> authorization = metadata.get("Authorization");
                String value = authorization == null || authorization.isEmpty() ? "" : authorization.get(0);
                if (value.startsWith(BEARER)) {
                    token.complete(value.substring(BEARER.length()));
                } else {
                    token.completeExceptionally(new IOException("the credentials gave no bearer token"));
                }
            }

            @Override
            public void onFailure(Throwable failure) {
                token.completeExceptionally(failure);
            }
        });
        return token;
    }
}
