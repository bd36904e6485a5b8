package io.agentfuse.gateway.testing;

import io.vertx.core.net.SelfSignedCertificate;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.security.cert.CertificateFactory;
import java.util.concurrent.Callable;

/**
 * Runs a piece of a test with the JVM's trust store holding one self-signed certificate alone, as
 * the gateway's TLS client trusts the JVM's store: a provider serving that certificate is trusted
 * for as long as the piece runs. It sets the trust store's properties and the JVM's default
 * {@link SSLContext} both: the default context reads the properties once, the first time anything
 * asks for it, and a client built on it after an earlier test did so kept that test's trust (a TLS
 * handshake of a later test failed its certificate path in about half the runs of the gateway's
 * proxy tests). Both are put back afterwards.
 *
 * <pre>{@code
 * UpstreamResponse answer = TrustedCertificate.whileTrusted(certificate, () -> send(httpsUrl));
 * }</pre>
 */
public final class TrustedCertificate {

    private static final String[] PROPERTIES = {"javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword",
            "javax.net.ssl.trustStoreType"};

    private TrustedCertificate() {
    }

    /** What {@code call} answers, run with the JVM trusting {@code certificate} alone. */
    public static <T> T whileTrusted(SelfSignedCertificate certificate, Callable<T> call) throws Exception {
        Path trustStore = Files.createTempFile("provider-trust", ".p12");
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (InputStream pem = Files.newInputStream(Path.of(certificate.certificatePath()))) {
            store.setCertificateEntry("provider", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            store.store(out, "secret".toCharArray());
        }
        String[] before = new String[PROPERTIES.length];
        for (int i = 0; i < PROPERTIES.length; i++) {
            before[i] = System.getProperty(PROPERTIES[i]);
        }
        System.setProperty(PROPERTIES[0], trustStore.toString());
        System.setProperty(PROPERTIES[1], "secret");
        System.setProperty(PROPERTIES[2], "PKCS12");
        SSLContext defaultBefore = SSLContext.getDefault();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, trust.getTrustManagers(), null);
        SSLContext.setDefault(trusting);
        try {
            return call.call();
        } finally {
            SSLContext.setDefault(defaultBefore);
            for (int i = 0; i < PROPERTIES.length; i++) {
                if (before[i] == null) {
                    System.clearProperty(PROPERTIES[i]);
                } else {
                    System.setProperty(PROPERTIES[i], before[i]);
                }
            }
            Files.deleteIfExists(trustStore);
        }
    }
}
