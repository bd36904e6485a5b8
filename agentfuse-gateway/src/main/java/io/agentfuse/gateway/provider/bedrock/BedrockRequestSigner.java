package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBufInputStream;
import io.vertx.core.buffer.Buffer;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.ResolveIdentityRequest;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Signs Bedrock requests with AWS Signature Version 4, with the AWS SDK's own signer
 * ({@link AwsV4HttpSigner}, service {@code bedrock}): the signature covers the method, the path and
 * query, the headers given and the final body bytes, so a request is signed last, just before it is
 * sent, and must go out exactly as signed. Credentials are static keys (with a session token for
 * temporary ones) or the AWS SDK's default chain (environment, profile, SSO, container and instance
 * roles), which may have to fetch them: signing is asynchronous.
 *
 * <p>Thread-safe; one per provider.
 *
 * <pre>{@code
 * BedrockRequestSigner signer = BedrockRequestSigner.staticKeys("us-east-1", keyId, secret, null);
 * signer.sign("POST", URI.create(endpoint + path), Map.of("content-type", "application/json"), body)
 *       .thenAccept(signed -> signed.forEach(request::putHeader));
 * }</pre>
 */
public final class BedrockRequestSigner {

    /** The service name Bedrock Runtime's signatures are scoped to. */
    public static final String SERVICE = "bedrock";

    private final String region;
    private final IdentityProvider<? extends AwsCredentialsIdentity> credentials;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    private BedrockRequestSigner(String region, IdentityProvider<? extends AwsCredentialsIdentity> credentials) {
        if (Objects.requireNonNull(region, "region").isBlank()) {
            throw new IllegalArgumentException("region must not be blank");
        }
        this.region = region;
        this.credentials = Objects.requireNonNull(credentials, "credentials");
    }

    /** A signer with static keys; {@code sessionToken} is {@code null} for long-term keys. */
    public static BedrockRequestSigner staticKeys(String region, String accessKeyId, String secretAccessKey,
                                                  String sessionToken) {
        AwsCredentialsIdentity identity = sessionToken == null || sessionToken.isEmpty()
                ? AwsCredentialsIdentity.create(accessKeyId, secretAccessKey)
                : AwsSessionCredentialsIdentity.create(accessKeyId, secretAccessKey, sessionToken);
        IdentityProvider<AwsCredentialsIdentity> fixed = new IdentityProvider<>() {
            @Override
            public Class<AwsCredentialsIdentity> identityType() {
                return AwsCredentialsIdentity.class;
            }

            @Override
            public CompletableFuture<AwsCredentialsIdentity> resolveIdentity(
                    ResolveIdentityRequest request) {
                return CompletableFuture.completedFuture(identity);
            }
        };
        return new BedrockRequestSigner(region, fixed);
    }

    /** A signer with the AWS SDK's default credentials chain. */
    public static BedrockRequestSigner defaultChain(String region) {
        return new BedrockRequestSigner(region, DefaultCredentialsProvider.builder().build());
    }

    /** The region the signatures are scoped to. */
    public String region() {
        return region;
    }

    /**
     * The headers that sign the request: {@code Authorization}, {@code X-Amz-Date} and, for temporary
     * credentials, {@code X-Amz-Security-Token} — to add to {@code headers}, which must be every
     * header the request goes out with besides {@code Host} (taken from {@code uri}).
     *
     * @param uri  the full request URI, host and port included
     * @param body the final body bytes
     */
    public CompletableFuture<Map<String, String>> sign(String method, URI uri, Map<String, String> headers, byte[] body) {
        return sign(method, uri, headers, ContentStreamProvider.fromByteArrayUnsafe(body));
    }

    /**
     * {@link #sign(String, URI, Map, byte[])} over the bytes of {@code body} where they lie: the
     * signer hashes the body through a stream, a few kilobytes at a time, so copying it into one
     * array first ({@code Buffer.getBytes()}) cost its size once more on every attempt, 4.8 MB for a
     * turn with a screenshot. Each stream reads a view of its own; {@code body} is not changed.
     */
    public CompletableFuture<Map<String, String>> sign(String method, URI uri, Map<String, String> headers, Buffer body) {
        return sign(method, uri, headers, () -> new ByteBufInputStream(VertxHooks.byteBuf(body)));
    }

    private CompletableFuture<Map<String, String>> sign(String method, URI uri, Map<String, String> headers,
                                                        ContentStreamProvider body) {
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(uri);
        headers.forEach(request::putHeader);
        SdkHttpFullRequest unsigned = request.build();
        return credentials.resolveIdentity().thenApply(identity -> {
            SdkHttpRequest signed = signer.sign(sign -> sign.request(unsigned)
                    .payload(body)
                    .identity(identity)
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, SERVICE)).request();
            Map<String, String> added = new LinkedHashMap<>();
            signed.forEachHeader((name, values) -> {
                if (!headers.containsKey(name) && !"host".equals(name.toLowerCase(Locale.ROOT))) {
                    added.put(name, values.get(0));
                }
            });
            return added;
        });
    }
}
