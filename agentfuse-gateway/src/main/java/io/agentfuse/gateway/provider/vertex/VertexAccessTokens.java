package io.agentfuse.gateway.provider.vertex;

import com.google.auth.RequestMetadataCallback;
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
import java.util.concurrent.Executor;

/**
 * The OAuth2 access tokens of a Vertex AI provider's service account, from its credentials file,
 * through google-auth-library: the library signs the JWT assertion with the file's private key,
 * exchanges it at the file's {@code token_uri}, caches the token and refreshes it before it expires
 * (in the background once it is within a few minutes of its end, in the foreground once it is too
 * close to be used), so a provider call waits for a token only on the first call and after an outage.
 *
 * <p>Thread-safe; one per provider.
 *
 * <pre>{@code
 * VertexAccessTokens tokens = VertexAccessTokens.fromServiceAccountFile(Path.of("sa.json"));
 * tokens.accessToken(workerExecutor).thenAccept(token -> headers.putAll(VertexGeminiDialect.INSTANCE.authHeaders(token)));
 * }</pre>
 */
public final class VertexAccessTokens {

    /** The scope of Vertex AI's API. */
    public static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    private static final URI AUDIENCE = URI.create("https://aiplatform.googleapis.com/");
    private static final String BEARER = "Bearer ";

    private final GoogleCredentials credentials;

    private VertexAccessTokens(GoogleCredentials credentials) {
        this.credentials = credentials;
    }

    /**
     * The tokens of the service account whose credentials file is {@code file}.
     *
     * @throws IOException when the file cannot be read or is not a service account's credentials file
     */
    public static VertexAccessTokens fromServiceAccountFile(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        try (InputStream in = Files.newInputStream(file)) {
            return new VertexAccessTokens(ServiceAccountCredentials.fromStream(in).createScoped(List.of(SCOPE)));
        }
    }

    /**
     * A live access token: the cached one, or a new one fetched on {@code executor} (never on the
     * caller's thread, which may be an event loop) when the cached one is missing or too close to its end.
     * Fails with the library's {@link IOException} when the token endpoint refuses the account.
     */
    public CompletableFuture<String> accessToken(Executor executor) {
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
