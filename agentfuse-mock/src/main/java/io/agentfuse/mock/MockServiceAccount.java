package io.agentfuse.mock;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

/**
 * A Google Cloud service account made for the Vertex AI mock: a fresh 2048-bit RSA key pair and the
 * credentials file ({@link #json()}) that google-auth-library reads — {@code type: service_account},
 * {@code project_id}, {@code client_email}, {@code private_key} (PKCS#8 PEM) and a {@code token_uri}
 * that points at the mock's token endpoint, which trusts the public half. Get one from
 * {@link MockProvider#newVertexServiceAccount(String)}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * MockServiceAccount account = mock.newVertexServiceAccount("my-project");
 * Files.writeString(credentialsFile, account.json().encodePrettily());
 * }</pre>
 */
public final class MockServiceAccount {

    private final String project;
    private final String clientEmail;
    private final String privateKeyId;
    private final String tokenUri;
    private final KeyPair keys;

    private MockServiceAccount(String project, String tokenUri, KeyPair keys) {
        this.project = project;
        this.tokenUri = tokenUri;
        this.keys = keys;
        this.privateKeyId = UUID.randomUUID().toString().replace("-", "");
        this.clientEmail = "mock-" + privateKeyId.substring(0, 8) + "@" + project + ".iam.gserviceaccount.com";
    }

    /** A new account of {@code project} with a fresh key, whose tokens are asked of {@code tokenUri}. */
    static MockServiceAccount generate(String project, String tokenUri) {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(tokenUri, "tokenUri");
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return new MockServiceAccount(project, tokenUri, generator.generateKeyPair());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM cannot make RSA keys", e);
        }
    }

    /** The project the account belongs to, and the only one its tokens may call. */
    public String project() {
        return project;
    }

    /** The account's e-mail, the {@code iss} of the assertions it signs. */
    public String clientEmail() {
        return clientEmail;
    }

    /** The token endpoint its credentials file names. */
    public String tokenUri() {
        return tokenUri;
    }

    /** The public key its assertions are checked with. */
    public PublicKey publicKey() {
        return keys.getPublic();
    }

    /** The credentials file, as Google Cloud's console would download it. */
    public JsonObject json() {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return new JsonObject()
                .put("type", "service_account")
                .put("project_id", project)
                .put("private_key_id", privateKeyId)
                .put("private_key", pem)
                .put("client_email", clientEmail)
                .put("client_id", "1" + Math.abs(privateKeyId.hashCode()))
                .put("auth_uri", "https://accounts.google.com/o/oauth2/auth")
                .put("token_uri", tokenUri)
                .put("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs")
                .put("universe_domain", "googleapis.com");
    }
}
