package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.TrustedCertificate;
import io.agentfuse.gateway.upstream.RawProvider.Style;
import io.netty.buffer.Unpooled;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SelfSignedCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.upstream.RawProvider.ANSWER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connections provider calls go out on ({@link UpstreamHttp}), against providers that keep them or close
 * them, answer out of turn or break their framing ({@link RawProvider}), by name, over TLS.
 */
class UpstreamConnectionsTest {

    private final Vertx vertx = GatewayVertx.create();
    private final UpstreamClient client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
    private RawProvider raw;

    @AfterEach
    void stop() throws IOException {
        if (raw != null) {
            raw.close();
        }
        Await.result(client.close());
        Await.result(vertx.close());
    }

    @Test
    void aConnectionIsKeptForTheNextCall() throws IOException {
        raw = new RawProvider(Style.KEEP);

        for (int i = 0; i < 3; i++) {
            assertThat(send("http://127.0.0.1:" + raw.port() + "/v1").status()).isEqualTo(200);
        }

        assertThat(raw.requests.get()).isEqualTo(3);
        assertThat(raw.connections.get()).isEqualTo(1);
    }

    @Test
    void aConnectionTheProviderClosesAfterItsAnswerIsNeverReused() throws IOException {
        raw = new RawProvider(Style.CLOSE);

        for (int i = 0; i < 3; i++) {
            assertThat(send("http://127.0.0.1:" + raw.port() + "/v1").status()).isEqualTo(200);
        }

        assertThat(raw.connections.get()).isEqualTo(3);
    }

    @Test
    void aBodyThatEndsWithItsConnectionIsReadWholeAndTheConnectionNotReused() throws IOException {
        raw = new RawProvider(Style.UNTIL_CLOSE);

        answeredWhole(2);

        assertThat(raw.connections.get()).isEqualTo(2);
    }

    @Test
    void anInformationalHeadBeforeTheAnswerIsPassedOver() throws IOException {
        raw = new RawProvider(Style.CONTINUE_FIRST);

        answeredWhole(2);

        assertThat(raw.connections.get()).isEqualTo(1);
    }

    @Test
    void anAnswerNobodyAskedForNeverReachesTheNextCall() throws IOException {
        raw = new RawProvider(Style.STALE_SECOND);

        answeredWhole(3);

        // the connection that carried the stale answer was closed, not lent to the next call
        assertThat(raw.connections.get()).isEqualTo(3);
    }

    @Test
    void anAnswerWhoseChunkFramingBreaksFailsAsMalformedAndItsConnectionIsClosed() throws IOException {
        raw = new RawProvider(Style.BROKEN_CHUNKS);

        for (int i = 0; i < 2; i++) {
            Throwable failure = Await.failure(client.send(UpstreamRequest.of(provider("http://127.0.0.1:" + raw.port()
                    + "/v1"), body()), Duration.ofSeconds(10)));
            assertThat(failure).isInstanceOf(MalformedAnswerException.class).hasMessageContaining("not valid HTTP");
        }

        // each call had a connection of its own, and the gateway closed both
        assertThat(raw.connections.get()).isEqualTo(2);
        Eventually.holds(vertx, () -> raw.ended.get() == 2);
    }

    @Test
    void theRequestIsThePostOfTheBodyWithTheProvidersHeadAndItsLength() throws IOException {
        raw = new RawProvider(Style.KEEP);
        Buffer heap = body().toBuffer();
        Buffer direct = VertxHooks.buffer(Unpooled.directBuffer().writeBytes(heap.getBytes()));

        for (Buffer bytes : List.of(heap, direct)) {
            UpstreamRequest request = new UpstreamRequest(provider("http://127.0.0.1:" + raw.port() + "/v1"), null,
                    Map.of(), bytes);
            assertThat(Await.result(client.send(request, Duration.ofSeconds(10))).status()).isEqualTo(200);

            String[] lines = raw.lastHead.split("\r\n");
            assertThat(lines[0]).isEqualTo("POST /v1/chat/completions HTTP/1.1");
            assertThat(List.of(lines).subList(1, lines.length)).containsExactlyInAnyOrder(
                    "content-type: application/json", "accept: application/json", "accept-encoding: identity",
                    "authorization: Bearer sk-test",
                    "host: 127.0.0.1:" + raw.port(), "content-length: " + heap.length());
            assertThat(raw.lastBody).isEqualTo(heap.toString());
        }
        assertThat(raw.connections.get()).isEqualTo(1);
    }

    @Test
    void aConnectionLeftUnusedForTheIdleTimeIsClosedAndTheNextCallOpensAnother() throws IOException {
        raw = new RawProvider(Style.KEEP);
        UpstreamClient shortIdle = new UpstreamClient(vertx, UpstreamClientOptions.defaults(), Duration.ofMillis(200));
        try {
            UpstreamRequest request = UpstreamRequest.of(provider("http://127.0.0.1:" + raw.port() + "/v1"), body());
            assertThat(Await.result(shortIdle.send(request, Duration.ofSeconds(10))).status()).isEqualTo(200);

            Eventually.holds(vertx, () -> raw.ended.get() == 1); // the gateway closed the unused connection

            assertThat(Await.result(shortIdle.send(request, Duration.ofSeconds(10))).status()).isEqualTo(200);
            assertThat(raw.connections.get()).isEqualTo(2);
        } finally {
            Await.result(shortIdle.close());
        }
    }

    @Test
    void aProviderNamedByItsHostNameIsReached() throws IOException {
        raw = new RawProvider(Style.KEEP);

        assertThat(send("http://localhost:" + raw.port() + "/v1").status()).isEqualTo(200);
        assertThat(raw.requests.get()).isEqualTo(1);
    }

    @Test
    void anHttpsProviderWhoseCertificateIsNotTrustedIsRefused() {
        SelfSignedCertificate certificate = SelfSignedCertificate.create("localhost");
        HttpServer tls = Await.result(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(certificate.keyCertOptions()))
                .requestHandler(request -> request.response().end(ANSWER)).listen(0, "127.0.0.1"));

        Throwable failure = Await.failure(client.send(UpstreamRequest.of(provider("https://localhost:" + tls.actualPort() + "/v1"),
                body()), Duration.ofSeconds(10)));

        assertThat(failure).satisfiesAnyOf(
                error -> assertThat(error).isInstanceOf(SSLException.class),
                error -> assertThat(error).hasCauseInstanceOf(SSLException.class),
                error -> assertThat(error).hasRootCauseInstanceOf(SSLException.class));
    }

    @Test
    void anHttpsProviderWhoseCertificateIsTrustedIsAnsweredOverTls() throws Exception {
        // The JVM's trust store is what the client trusts: here one holding the provider's own certificate
        SelfSignedCertificate certificate = SelfSignedCertificate.create("localhost");
        HttpServer tls = Await.result(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(certificate.keyCertOptions()))
                .requestHandler(request -> request.body().onSuccess(ignored -> request.response()
                        .putHeader("content-type", "application/json").end(ANSWER)))
                .listen(0, "127.0.0.1"));
        UpstreamResponse answer = TrustedCertificate.whileTrusted(certificate, () -> send("https://localhost:" + tls.actualPort() + "/v1"));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.usage().inputTokens()).isEqualTo(1);
    }

    /** {@code calls} calls in turn to the raw provider, each answered 200 with the whole answer. */
    private void answeredWhole(int calls) {
        for (int i = 0; i < calls; i++) {
            UpstreamResponse answer = send("http://127.0.0.1:" + raw.port() + "/v1");
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body().toString()).isEqualTo(ANSWER);
        }
    }

    private UpstreamResponse send(String baseUrl) {
        return Await.result(client.send(UpstreamRequest.of(provider(baseUrl), body()), Duration.ofSeconds(10)));
    }

    private static ProviderEndpoint provider(String baseUrl) {
        return new ProviderEndpoint("raw", Dialects.OPENAI, baseUrl, "sk-test");
    }

    private static JsonObject body() {
        return new JsonObject().put("model", "m")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }
}
