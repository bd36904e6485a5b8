package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.gateway.dialect.CredentialsRefusedException;
import io.agentfuse.gateway.dialect.RecentSecrets;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import software.amazon.awssdk.core.exception.SdkClientException;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A {@code bedrock} provider's authentication: a Bedrock API key as a fixed {@code Authorization:
 * Bearer} when {@code apiKey} is set, else each request signed with SigV4 ({@link BedrockRequestSigner})
 * by static keys or the AWS SDK's default chain. The signature is computed on the blocking executor:
 * it hashes the whole body, and the default chain may have to ask a metadata service or read a profile.
 * No credentials in the default chain fail the call with {@link CredentialsRefusedException}.
 *
 * <p>Temporary credentials (a {@code sessionToken}, or what the default chain finds: SSO, a role)
 * are sent with an {@code X-Amz-Security-Token}, a bearer secret on its own: the last few it sent are
 * its {@linkplain #secretsSent secrets}, so that a provider's error (or a proxy's) that echoes one
 * reaches no caller and no log with it. The signature itself holds for its one request only.
 *
 * <p>Thread-safe; one per provider.
 */
final class BedrockAuth implements UpstreamAuth {

    /** The header of a temporary credential's session token, which SigV4 sends as it is. */
    static final String SECURITY_TOKEN = "x-amz-security-token";

    private final String provider;
    private final BedrockRequestSigner signer;
    private final Credential credential;
    /** The session tokens sent last. */
    private final RecentSecrets sessionTokens = new RecentSecrets();

    private BedrockAuth(String provider, BedrockRequestSigner signer, Credential credential) {
        this.provider = provider;
        this.signer = signer;
        this.credential = credential;
    }

    /** The authentication {@code provider} is configured with. */
    static UpstreamAuth of(ProviderConfig provider) {
        String keys = "providers." + provider.name() + ".";
        if (provider.hasApiKey()) {
            return UpstreamAuth.fixed(BedrockDialect.INSTANCE.authHeaders(provider.apiKey()),
                    new Credential("Bedrock API key", keys + "apiKey"));
        }
        ProviderConfig.Cloud cloud = provider.cloud();
        if (cloud.usesDefaultChain()) {
            return new BedrockAuth(provider.name(), BedrockRequestSigner.defaultChain(cloud.region()),
                    new Credential("AWS SigV4 signature (" + keys + "credentials: default)", "the credentials the AWS"
                            + " SDK's default chain finds (environment, AWS_PROFILE, instance or task role), their"
                            + " bedrock:InvokeModel permission and " + keys + "region"));
        }
        BedrockRequestSigner signer = BedrockRequestSigner.staticKeys(cloud.region(), cloud.accessKeyId(),
                cloud.secretAccessKey(), cloud.sessionToken());
        return new BedrockAuth(provider.name(), signer, new Credential("AWS SigV4 signature",
                keys + "accessKeyId, secretAccessKey" + (cloud.sessionToken().isEmpty() ? "" : ", sessionToken (it may have expired)")
                        + " and region"));
    }

    @Override
    public CompletionStage<Map<String, String>> headers(Outgoing request, Means means) {
        return CompletableFuture.supplyAsync(() -> signer.sign(request.method(), request.uri(), request.headers(),
                request.body()), means.blocking()).thenCompose(signed -> signed)
                .thenApply(this::sending).exceptionallyCompose(this::refused);
    }

    /** Keeps the session token {@code signed} carries, if any, among the secrets sent. */
    private Map<String, String> sending(Map<String, String> signed) {
        signed.forEach((name, value) -> {
            if (SECURITY_TOKEN.equalsIgnoreCase(name)) {
                sessionTokens.sending(value);
            }
        });
        return signed;
    }

    @Override
    public Collection<String> secretsSent() {
        return sessionTokens.sent();
    }

    @Override
    public Credential credential() {
        return credential;
    }

    private CompletionStage<Map<String, String>> refused(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof SdkClientException) { // the default chain found no credentials
            return CompletableFuture.failedFuture(new CredentialsRefusedException("provider " + provider
                    + " has no AWS credentials: the AWS SDK's default chain found none (" + cause.getMessage()
                    + "); set providers." + provider + ".accessKeyId and secretAccessKey, or the chain's sources", cause));
        }
        return CompletableFuture.failedFuture(cause);
    }

    @Override
    public String toString() {
        return "BedrockAuth[region=" + signer.region() + "]";
    }
}
