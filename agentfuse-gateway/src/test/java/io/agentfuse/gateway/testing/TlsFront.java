package io.agentfuse.gateway.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SelfSignedCertificate;

/**
 * An {@code https} front for a cleartext server on 127.0.0.1 (a provider mock): what it is asked over
 * TLS, with a self-signed certificate for {@code localhost}, it asks the server behind it and answers
 * as it answered (status, content type, body). So an {@code https} endpoint the mocks serve over
 * cleartext — Vertex AI's token endpoint, reached in earnest through a proxy's {@code CONNECT} — can
 * be called as it is in production. Trust its {@link #certificate()} with {@link TrustedCertificate}.
 *
 * <pre>{@code
 * TlsFront front = TlsFront.start(vertx, mock.port(), SelfSignedCertificate.create("localhost"));
 * String tokenUri = front.url() + "/oauth2/token";
 * }</pre>
 */
public final class TlsFront {

    private final HttpServer server;
    private final HttpClient client;
    private final SelfSignedCertificate certificate;

    private TlsFront(HttpServer server, HttpClient client, SelfSignedCertificate certificate) {
        this.server = server;
        this.client = client;
        this.certificate = certificate;
    }

    /**
     * A front on a free port of 127.0.0.1 for the server on {@code backendPort}, serving {@code certificate}
     * (for {@code localhost}; the tests of a class may share one, as making a key pair takes a while).
     */
    public static TlsFront start(Vertx vertx, int backendPort, SelfSignedCertificate certificate) {
        HttpClient client = vertx.createHttpClient();
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(certificate.keyCertOptions()))
                .requestHandler(request -> relay(client, backendPort, request));
        return new TlsFront(Await.result(server.listen(0, "127.0.0.1")), client, certificate);
    }

    private static void relay(HttpClient client, int backendPort, HttpServerRequest in) {
        in.body().compose(body -> client.request(in.method(), backendPort, "127.0.0.1", in.uri()).compose(out -> {
            in.headers().forEach((name, value) -> {
                if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
                    out.putHeader(name, value);
                }
            });
            return out.send(body);
        })).compose(answer -> answer.body().map(body -> {
            String type = answer.getHeader("content-type");
            if (type != null) {
                in.response().putHeader("content-type", type);
            }
            in.response().setStatusCode(answer.statusCode()).end(body);
            return (Void) null;
        })).recover(failure -> {
            in.response().setStatusCode(502).end("the server behind the TLS front failed: " + failure.getMessage());
            return Future.succeededFuture();
        });
    }

    /** {@code https://localhost:<port>}, the name its certificate holds. */
    public String url() {
        return "https://localhost:" + server.actualPort();
    }

    /** Its port on 127.0.0.1. */
    public int port() {
        return server.actualPort();
    }

    /** The self-signed certificate it serves. */
    public SelfSignedCertificate certificate() {
        return certificate;
    }

    /** Stops it and its client. */
    public void close() {
        Await.result(server.close());
        Await.result(client.close());
    }
}
