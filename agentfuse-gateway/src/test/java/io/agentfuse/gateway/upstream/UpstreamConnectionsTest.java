package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.TrustedCertificate;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The connections provider calls go out on ({@link UpstreamHttp}), against providers that keep them or close them, answer out of turn or break their framing, by name, over TLS. */
class UpstreamConnectionsTest {

    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

    private static final String STALE = ANSWER.replace("\"hi\"", "\"stale\"");

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

    /** How a {@link RawProvider} answers, and whether it closes the connection after each answer. */
    private enum Style {
        KEEP(false, ""),
        CLOSE(true, ""),
        /** HTTP/1.0 with neither a length nor chunks: the body ends when the connection does. */
        UNTIL_CLOSE(true, ""),
        /** A {@code 100 Continue} nobody asked for before the answer. */
        CONTINUE_FIRST(false, "HTTP/1.1 100 Continue\r\n\r\n"),
        /** A second, stale answer nobody asked for, written with the first. */
        STALE_SECOND(false, ""),
        /** Chunked, and the second chunk's size is not hexadecimal: the framing breaks inside the body. */
        BROKEN_CHUNKS(false, "");

        final boolean closes;
        private final String before;

        Style(boolean closes, String before) {
            this.closes = closes;
            this.before = before;
        }

        byte[] answer(String json) {
            if (this == BROKEN_CHUNKS) {
                int half = json.length() / 2;
                return ("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                        + Integer.toHexString(half) + "\r\n" + json.substring(0, half) + "\r\nzz\r\n"
                        + json.substring(half) + "\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8);
            }
            String head = this == UNTIL_CLOSE ? "HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n"
                    : "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                    + json.getBytes(StandardCharsets.UTF_8).length + (this == CLOSE ? "\r\nconnection: close" : "") + "\r\n\r\n";
            String stale = this == STALE_SECOND ? "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                    + STALE.length() + "\r\n\r\n" + STALE : "";
            return (before + head + json + stale).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** A provider on a plain socket: answers every request in its {@link Style}. */
    private static final class RawProvider implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        /** Connections that ended: the gateway's close read, or its reset. */
        final AtomicInteger ended = new AtomicInteger();
        /** The last request's head (without its blank line) and body. */
        volatile String lastHead;
        volatile String lastBody;
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final Style style;

        RawProvider(Style style) throws IOException {
            this.style = style;
            Thread acceptor = new Thread(this::accept, "raw-provider");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket connection = server.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection), "raw-provider-connection");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                OutputStream out = connection.getOutputStream();
                while (readRequest(in)) {
                    requests.incrementAndGet();
                    out.write(style.answer(ANSWER));
                    out.flush();
                    if (style.closes) {
                        return;
                    }
                }
                ended.incrementAndGet();
            } catch (SocketException reset) {
                ended.incrementAndGet(); // closed at once, with what was still to send dropped
            } catch (IOException gone) {
                // the client closed the connection
            }
        }

        /** Reads one request's head and body; false at the end of the connection. */
        private boolean readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    break;
                }
            }
            if (b < 0) {
                return false;
            }
            int length = 0;
            for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            byte[] body = in.readNBytes(length);
            lastHead = head.toString(StandardCharsets.ISO_8859_1).replaceAll("\r\n\r\n$", "");
            lastBody = new String(body, StandardCharsets.UTF_8);
            return body.length == length;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
