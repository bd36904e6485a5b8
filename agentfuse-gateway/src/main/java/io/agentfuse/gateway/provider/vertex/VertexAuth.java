package io.agentfuse.gateway.provider.vertex;

import com.google.api.client.http.HttpResponseException;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.gateway.dialect.CredentialsRefusedException;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.dialect.RecentSecrets;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.vertx.core.MultiMap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A {@code vertex} provider's authentication: {@code Authorization: Bearer} with an access token of
 * the service account in its {@code credentials} file ({@link VertexAccessTokens}: cached, refreshed
 * before it expires). The file is read on the blocking executor at the first call, never on an event
 * loop; tokens are fetched there too, on the client stack and through the egress proxy of the provider calls
 * ({@link EgressTransport}). A token Vertex calls invalid ({@link VertexErrors#refusesToken}: revoked,
 * its account's key deleted) is dropped, so that the next call fetches a fresh one rather than fail
 * until the token's hour ends.
 *
 * <p>The last {@value RecentSecrets#KEPT} tokens it sent are {@linkplain #secretsSent secrets}: a provider's
 * error that echoes one (in its body or its headers) reaches no caller and no log with it, whether it
 * is the current token or one a call still in flight was sent with before a refresh.
 *
 * <p>A token endpoint that refuses the account (a key it does not know, a foreign or revoked
 * account) or a file that is not a service account's fails the call with
 * {@link CredentialsRefusedException}: not retried, fallen back from. A token endpoint that cannot be
 * reached fails it like a provider that cannot be: with the transport's exception. An egress proxy
 * that refuses the gateway's login or cannot be reached fails it with {@link EgressProxyException},
 * which names the proxy: the service account was never asked, so it is not blamed.
 *
 * <p>Thread-safe; one per provider, shared by its Gemini and Anthropic dialects.
 */
final class VertexAuth implements UpstreamAuth {

    private final String provider;
    private final Path credentialsFile;
    private final Credential credential;
    private volatile CompletableFuture<VertexAccessTokens> tokens;
    /** The tokens sent last. */
    private final RecentSecrets sent = new RecentSecrets();

    private VertexAuth(String provider, Path credentialsFile, Credential credential) {
        this.provider = provider;
        this.credentialsFile = credentialsFile;
        this.credential = credential;
    }

    /** The authentication {@code provider} is configured with. */
    static UpstreamAuth of(ProviderConfig provider) {
        String file = "providers." + provider.name() + ".credentials";
        return new VertexAuth(provider.name(), Path.of(provider.cloud().credentials()), new Credential(
                "OAuth2 access token of the service account in " + file, "that account (enabled, its key not deleted)"
                + " and its Vertex AI User role in project " + provider.cloud().project()));
    }

    @Override
    public CompletionStage<Map<String, String>> headers(Outgoing request, Means means) {
        return tokens(means).thenCompose(source -> source.accessToken(means.blocking()))
                .thenApply(token -> {
                    sent.sending(token);
                    return VertexGeminiDialect.INSTANCE.authHeaders(token);
                })
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(refusal(failure)));
    }

    @Override
    public Credential credential() {
        return credential;
    }

    @Override
    public Collection<String> secretsSent() {
        return sent.sent();
    }

    /** Drops the cached token when Vertex says it is no longer valid; a refusal of a valid token keeps it. */
    @Override
    public void refused(int status, MultiMap headers, String body) {
        CompletableFuture<VertexAccessTokens> current = tokens;
        if (current != null && current.isDone() && !current.isCompletedExceptionally()
                && VertexErrors.refusesToken(status, headers.get("www-authenticate"), body)) {
            current.join().dropCachedToken();
        }
    }

    /** The account's tokens, the file read once on the blocking executor; a failed read is tried again on the next call. */
    private CompletableFuture<VertexAccessTokens> tokens(Means means) {
        CompletableFuture<VertexAccessTokens> current = tokens;
        if (current == null || current.isCompletedExceptionally()) {
            synchronized (this) {
                current = tokens;
                if (current == null || current.isCompletedExceptionally()) {
                    current = CompletableFuture.supplyAsync(() -> read(new EgressTransport(means)), means.blocking());
                    tokens = current;
                }
            }
        }
        return current;
    }

    private VertexAccessTokens read(EgressTransport transport) {
        try {
            return VertexAccessTokens.fromServiceAccountFile(credentialsFile, transport);
        } catch (IOException | RuntimeException e) {
            throw new CredentialsRefusedException("provider " + provider + ": " + credentialsFile
                    + " is not a service account's credentials file (" + e.getMessage() + "); check providers."
                    + provider + ".credentials", e);
        }
    }

    /**
     * A refusal by the token endpoint becomes {@link CredentialsRefusedException}; the egress proxy's
     * failure ({@link EgressProxyException}, wrapped by the library or not) is told as the proxy's;
     * anything else stays what it is.
     */
    private Throwable refusal(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        for (Throwable at = cause; at != null; at = at.getCause()) {
            if (at instanceof CredentialsRefusedException || at instanceof EgressProxyException) {
                return at; // the proxy's refusal is the proxy's: the account was never asked
            }
            if (at instanceof HttpResponseException answer && answer.getStatusCode() / 100 == 4
                    && answer.getStatusCode() != 408 && answer.getStatusCode() != 429) {
                return new CredentialsRefusedException("provider " + provider + ": the token endpoint refused the"
                        + " service account of " + credentialsFile + " (HTTP " + answer.getStatusCode()
                        + "); check providers." + provider + ".credentials", cause);
            }
        }
        return cause;
    }

    @Override
    public String toString() {
        return "VertexAuth[" + credentialsFile + "]";
    }
}
