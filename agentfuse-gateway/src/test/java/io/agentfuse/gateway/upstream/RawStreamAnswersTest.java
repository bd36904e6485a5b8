package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streamed answers as a provider writes them on the wire, well-formed or not: what a stream gets
 * from an answer with an informational head before it, from one that is not HTTP at all, and from
 * one whose chunk framing breaks after an event.
 */
class RawStreamAnswersTest {

    private static final StreamTimeouts GENEROUS = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10));
    private static final String EVENT = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n";

    private final Vertx vertx = GatewayVertx.create();
    private final UpstreamClient client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
    /** Completed when a connection to the raw provider is closed (it never closes one itself). */
    private final Promise<Void> closedByTheGateway = Promise.promise();

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aStreamAfterAnInformationalHeadIsDeliveredWhole() {
        String chunked = Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n"
                + Integer.toHexString("data: [DONE]\n\n".length()) + "\r\ndata: [DONE]\n\n\r\n0\r\n\r\n";
        ProviderEndpoint provider = providerAnswering("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n" + chunked);

        UpstreamStream stream = Await.result(client.stream(request(provider), GENEROUS));
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        Promise<Throwable> ended = Promise.promise();
        stream.handler(events::add).endHandler(v -> ended.tryComplete(null)).exceptionHandler(ended::tryComplete);

        assertThat(Await.result(ended.future())).isNull();
        assertThat(stream.status()).isEqualTo(200);
        assertThat(events).hasSize(2).last().matches(SseEvent::isDone, "is [DONE]");
    }

    @Test
    void anAnswerThatIsNotHttpFailsTheStreamAsAMalformedAnswer() {
        ProviderEndpoint provider = providerAnswering("SSH-2.0-OpenSSH_9.6\r\nnot an HTTP answer\r\n\r\n");

        Throwable failure = Await.failure(client.stream(request(provider), GENEROUS));

        assertThat(failure).isInstanceOf(MalformedAnswerException.class).hasMessageContaining("not valid HTTP");
    }

    @Test
    void aStreamWhoseChunkFramingBreaksAfterAnEventFailsAsAMalformedAnswerAndClosesItsConnection() {
        // Given a provider whose first chunk is well framed and whose next chunk size is not hexadecimal
        ProviderEndpoint provider = providerAnswering("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                + "transfer-encoding: chunked\r\n\r\n" + Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n"
                + "zz\r\n" + EVENT + "\r\n");

        UpstreamStream stream = Await.result(client.stream(request(provider), GENEROUS));
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        Promise<Throwable> ended = Promise.promise();
        stream.handler(events::add).endHandler(v -> ended.tryComplete(null)).exceptionHandler(ended::tryComplete);

        // Then the event before the break is delivered, the stream fails as malformed, and the connection is closed
        assertThat(Await.result(ended.future())).isInstanceOf(MalformedAnswerException.class)
                .hasMessageContaining("not valid HTTP");
        assertThat(events).hasSize(1);
        Await.result(closedByTheGateway.future());
    }

    /** A provider on a raw socket that writes {@code wire} once a request's head has come. */
    private ProviderEndpoint providerAnswering(String wire) {
        NetServer server = vertx.createNetServer().connectHandler(socket -> {
            socket.closeHandler(v -> closedByTheGateway.tryComplete());
            Buffer received = Buffer.buffer();
            socket.handler(bytes -> {
                received.appendBuffer(bytes);
                if (received.toString().contains("\r\n\r\n")) { // the head is in: the body may follow, unread
                    socket.handler(null);
                    socket.write(wire);
                }
            });
        });
        Await.result(server.listen(0, "127.0.0.1"));
        return new ProviderEndpoint("raw", Dialects.OPENAI, "http://127.0.0.1:" + server.actualPort() + "/v1", "k");
    }

    private static UpstreamRequest request(ProviderEndpoint provider) {
        return UpstreamRequest.of(provider, new JsonObject().put("model", "m").put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))));
    }
}
