package io.agentfuse.mock;

import io.vertx.core.MultiMap;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Checks an AWS Signature Version 4 the way AWS does, with the AWS SDK's own signer: the request is
 * signed again with the mock's secret, at the time and over the headers the caller signed, and the
 * two {@code Authorization} headers must be equal. A request AWS would refuse is refused with
 * AWS's exception and message: no signature ({@code MissingAuthenticationTokenException}), an
 * unknown access key or session token ({@code UnrecognizedClientException}), a signature scoped to
 * another region or service, older or newer than 15 minutes, or made with another secret
 * ({@code InvalidSignatureException}); all 403.
 *
 * <p>Immutable and thread-safe.
 */
final class AwsSignatureCheck {

    /** How far a signature's time may be from the server's. */
    static final Duration MAX_SKEW = Duration.ofMinutes(15);
    /** The service name Bedrock Runtime's signatures are scoped to. */
    static final String SERVICE = "bedrock";

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final MockCredentials credentials;
    private final Clock clock;

    /** Why a request is refused: the status, AWS's exception name and its message. */
    record Refusal(int status, String exception, String message) {
    }

    AwsSignatureCheck(MockCredentials credentials, Clock clock) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The refusal of a request, or {@code null} when its signature is good.
     *
     * @param method    the HTTP method
     * @param uri       the request target as received (raw path and query)
     * @param authority the host and port the request was sent to ({@code Host}, or HTTP/2's {@code :authority})
     * @param headers   the request headers
     * @param body      the body bytes
     */
    Refusal check(String method, String uri, String authority, MultiMap headers, byte[] body) {
        String authorization = headers.get("authorization");
        if (authorization == null || authorization.isBlank()) {
            return refuse("MissingAuthenticationTokenException", "Missing Authentication Token");
        }
        Map<String, String> parts = parts(authorization);
        String[] scope = parts == null ? null : parts.getOrDefault("Credential", "").split("/");
        if (scope == null || scope.length != 5 || !parts.containsKey("SignedHeaders") || !parts.containsKey("Signature")) {
            return refuse("IncompleteSignatureException", "Authorization header requires 'Credential', 'Signature' and "
                    + "'SignedHeaders' parameters of " + ALGORITHM + ". Authorization=" + authorization);
        }
        if (!credentials.awsAccessKeyId().equals(scope[0])
                || !Objects.equals(credentials.awsSessionToken(), headers.get("x-amz-security-token"))) {
            return refuse("UnrecognizedClientException", BedrockErrors.message("UnrecognizedClientException"));
        }
        Instant signedAt;
        try {
            signedAt = Instant.from(AMZ_DATE.parse(Objects.requireNonNullElse(headers.get("x-amz-date"), "")));
        } catch (DateTimeParseException e) {
            return refuse("IncompleteSignatureException",
                    "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
        }
        Instant now = clock.instant();
        if (Duration.between(signedAt, now).abs().compareTo(MAX_SKEW) > 0) {
            return refuse("InvalidSignatureException", "Signature expired: " + AMZ_DATE.format(signedAt)
                    + " is now earlier than " + AMZ_DATE.format(now.minus(MAX_SKEW)) + " (" + AMZ_DATE.format(now)
                    + " - 15 min.)");
        }
        if (!scope[1].equals(AMZ_DATE.format(signedAt).substring(0, 8)) || !"aws4_request".equals(scope[4])) {
            return refuse("InvalidSignatureException", "Credential should be scoped to a valid date and terminated "
                    + "with aws4_request.");
        }
        if (!credentials.awsRegion().equals(scope[2])) {
            return refuse("InvalidSignatureException", "Credential should be scoped to a valid region. ");
        }
        if (!SERVICE.equals(scope[3])) {
            return refuse("InvalidSignatureException", "Credential should be scoped to correct service: '" + SERVICE + "'. ");
        }
        String expected = signAgain(method, uri, authority, headers, body, parts.get("SignedHeaders"), signedAt);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), authorization.getBytes(StandardCharsets.UTF_8))) {
            return refuse("InvalidSignatureException", BedrockErrors.message("InvalidSignatureException"));
        }
        return null;
    }

    /** The {@code Authorization} header the SDK's signer makes of the same request with the mock's secret. */
    private String signAgain(String method, String uri, String authority, MultiMap headers, byte[] body,
                             String signedHeaders, Instant signedAt) {
        int query = uri.indexOf('?');
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.fromValue(method))
                .protocol("http")
                .encodedPath(query < 0 ? uri : uri.substring(0, query));
        if (query >= 0) {
            for (String pair : uri.substring(query + 1).split("&")) {
                if (!pair.isEmpty()) {
                    int equals = pair.indexOf('=');
                    request.appendRawQueryParameter(decode(equals < 0 ? pair : pair.substring(0, equals)),
                            equals < 0 ? null : decode(pair.substring(equals + 1)));
                }
            }
        }
        for (String name : signedHeaders.split(";")) {
            if (!"host".equals(name)) { // the signer signs the Host header from the request's host and port
                headers.getAll(name).forEach(value -> request.appendHeader(name, value));
            }
        }
        int colon = authority.lastIndexOf(':');
        request.host(colon < 0 ? authority : authority.substring(0, colon));
        if (colon >= 0) {
            request.port(Integer.parseInt(authority.substring(colon + 1)));
        }
        AwsCredentialsIdentity identity = credentials.awsSessionToken() == null
                ? AwsCredentialsIdentity.create(credentials.awsAccessKeyId(), credentials.awsSecretAccessKey())
                : AwsSessionCredentialsIdentity.create(credentials.awsAccessKeyId(), credentials.awsSecretAccessKey(),
                        credentials.awsSessionToken());
        boolean payloadSigned = !"UNSIGNED-PAYLOAD".equals(headers.get("x-amz-content-sha256"));
        SignedRequest signed = AwsV4HttpSigner.create().sign(sign -> sign
                .request(request.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .identity(identity)
                .putProperty(AwsV4HttpSigner.REGION_NAME, credentials.awsRegion())
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, payloadSigned)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)));
        return signed.request().firstMatchingHeader("Authorization").orElse("");
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static Refusal refuse(String exception, String message) {
        return new Refusal(403, exception, message);
    }

    /** The {@code Key=value} parts of an {@code ALGORITHM Key=value, Key=value} header, or {@code null} for another algorithm. */
    private static Map<String, String> parts(String header) {
        if (!header.startsWith(ALGORITHM + " ")) {
            return null;
        }
        Map<String, String> parts = new HashMap<>();
        for (String part : header.substring(ALGORITHM.length() + 1).split(",")) {
            int equals = part.indexOf('=');
            if (equals > 0) {
                parts.put(part.substring(0, equals).trim(), part.substring(equals + 1).trim());
            }
        }
        return parts;
    }
}
