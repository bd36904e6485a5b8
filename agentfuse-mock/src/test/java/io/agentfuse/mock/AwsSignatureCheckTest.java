package io.agentfuse.mock;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** The SigV4 check against requests signed by the AWS SDK's signer at chosen times, regions and credentials. */
class AwsSignatureCheckTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String PATH = "/model/anthropic.claude-sonnet-4-5-v1%3A0/converse";
    private static final byte[] BODY = "{\"messages\":[]}".getBytes(StandardCharsets.UTF_8);

    private final AwsSignatureCheck check = new AwsSignatureCheck(MockCredentials.defaults(), Clock.fixed(NOW, ZoneOffset.UTC));

    private static MultiMap signed(AwsCredentialsIdentity identity, String region, String service, Instant at) {
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST).protocol("http")
                .host("127.0.0.1").port(8080).encodedPath(PATH).putHeader("content-type", "application/json").build();
        SdkHttpRequest signed = AwsV4HttpSigner.create().sign(sign -> sign.request(request)
                .payload(ContentStreamProvider.fromByteArray(BODY)).identity(identity)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC))).request();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        signed.forEachHeader((name, values) -> values.forEach(value -> headers.add(name, value)));
        return headers;
    }

    private static AwsCredentialsIdentity mockKeys() {
        return AwsCredentialsIdentity.create(MockCredentials.AWS_ACCESS_KEY_ID, MockCredentials.AWS_SECRET_ACCESS_KEY);
    }

    private AwsSignatureCheck.Refusal check(MultiMap headers) {
        return check.check("POST", PATH, "127.0.0.1:8080", headers, BODY);
    }

    @Test
    void aRequestSignedWithTheMocksKeysIsAccepted() {
        assertThat(check(signed(mockKeys(), "us-east-1", "bedrock", NOW.minusSeconds(30)))).isNull();
    }

    @Test
    void aChangedBodyBreaksTheSignature() {
        MultiMap headers = signed(mockKeys(), "us-east-1", "bedrock", NOW);

        AwsSignatureCheck.Refusal refusal = check.check("POST", PATH, "127.0.0.1:8080", headers,
                "{\"messages\":[1]}".getBytes(StandardCharsets.UTF_8));

        assertThat(refusal.exception()).isEqualTo("InvalidSignatureException");
    }

    @Test
    void aSignatureOlderThanFifteenMinutesHasExpired() {
        AwsSignatureCheck.Refusal refusal = check(signed(mockKeys(), "us-east-1", "bedrock", NOW.minus(Duration.ofMinutes(16))));

        assertThat(refusal.status()).isEqualTo(403);
        assertThat(refusal.exception()).isEqualTo("InvalidSignatureException");
        assertThat(refusal.message()).startsWith("Signature expired: 20260301T114400Z is now earlier than");
    }

    @Test
    void aSignatureScopedToAnotherRegionOrServiceIsRefused() {
        assertThat(check(signed(mockKeys(), "eu-west-1", "bedrock", NOW)).message()).contains("valid region");
        assertThat(check(signed(mockKeys(), "us-east-1", "s3", NOW)).message()).contains("correct service: 'bedrock'");
    }

    @Test
    void aRequestWithoutSignatureMissesItsAuthenticationToken() {
        assertThat(check(MultiMap.caseInsensitiveMultiMap()).exception()).isEqualTo("MissingAuthenticationTokenException");
    }

    @Test
    void aSessionTokenTheMockDoesNotExpectIsUnrecognizedAndOneItExpectsIsNeeded() {
        AwsSessionCredentialsIdentity session = AwsSessionCredentialsIdentity.create(MockCredentials.AWS_ACCESS_KEY_ID,
                MockCredentials.AWS_SECRET_ACCESS_KEY, "session-1");
        AwsSignatureCheck withSession = new AwsSignatureCheck(MockCredentials.defaults().withAwsSessionToken("session-1"),
                Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(check(signed(session, "us-east-1", "bedrock", NOW)).exception()).isEqualTo("UnrecognizedClientException");
        assertThat(withSession.check("POST", PATH, "127.0.0.1:8080", signed(session, "us-east-1", "bedrock", NOW), BODY))
                .isNull();
        assertThat(withSession.check("POST", PATH, "127.0.0.1:8080", signed(mockKeys(), "us-east-1", "bedrock", NOW), BODY)
                .exception()).isEqualTo("UnrecognizedClientException");
    }
}
