package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.chatBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

/**
 * Callers that stop reading what they asked for — a stream, the event feed: after
 * {@code server.clientWriteTimeout} (1 s here) or beyond {@code server.maxEventQueue} they are cut
 * off, and what they held (provider connections, queued events) is given back. The callers never
 * read at all, so the limits are met whatever the machine's load; the other timeouts are the
 * product's, long enough for the ordinary requests of the cases. {@link IsolatedGateway} checks the
 * gateway's health after each.
 */
class StalledReadersTest {

    @RegisterExtension
    static final IsolatedGateway gateway = IsolatedGateway.withServerKeys("clientWriteTimeout: 1s");

    @Test
    void callersThatStopReadingDoNotHoldTheProvidersPool() {
        List<RawSocket> stalled = new ArrayList<>();
        int before = gateway.hostile().requests();
        try {
            for (int i = 0; i < 70; i++) {
                RawSocket socket = RawSocket.open(gateway.port(), 4096);
                stalled.add(socket);
                socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("big-stream").put("stream", true).encode()));
            }
            // Streams nobody reads take connections to the provider, all 70 of them (the model lets
            // 100 run at once, so none is refused and left idle rather than stalled).
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().requests() - before >= 70);

            Response ordinary = gateway.chat("plain");

            assertThat(ordinary.status()).as(ordinary.body()).isEqualTo(200);
            // Every stalled stream's provider call is cancelled: no endless answer is being sent and
            // the provider's connections are closed. Only then are the callers read: reading one
            // whose stream still ran would un-stall it.
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().endlessAnswers() == 0
                    && gateway.hostile().openConnections() <= 1);
            stalled.forEach(socket -> assertThat(socket.closedWithin(BOUND)).as("a stalled caller is cut off").isTrue());
        } finally {
            stalled.forEach(RawSocket::close);
        }
    }

    @Test
    void slowEventSubscribersAreDropped() {
        List<RawSocket> subscribers = new ArrayList<>();
        int fdsBefore = gateway.fileDescriptors();
        try {
            for (int i = 0; i < 5; i++) {
                RawSocket socket = RawSocket.open(gateway.port(), 4096);
                subscribers.add(socket);
                socket.send("GET /admin/events HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
                // Subscribed once the head comes (with ": connected"); events before would be missed.
                assertThat(socket.head(BOUND)).startsWith("HTTP/1.1 200");
            }
            // About 18 MB of events each, more than the kernel's socket buffers and the 16 KB queue hold.
            // Returns once the event loops have written (or dropped) every event: reading a subscriber
            // while its events were still being written would let it catch up.
            gateway.flipBreaker("model:plain", 30_000);

            // Dropped means let go at once: the gateway's descriptors are back while the subscribers
            // still have not read (a graceful close would hold each until its peer took the backlog).
            assertThat(gateway.fileDescriptorsFallTo(fdsBefore + 2)).as("the gateway let go of the dropped subscribers' sockets "
                    + "(%d descriptors before they came, %d now)", fdsBefore, gateway.fileDescriptors()).isTrue();
            subscribers.forEach(socket -> assertThat(socket.closedWithin(BOUND)).as("a slow subscriber is dropped").isTrue());
        } finally {
            subscribers.forEach(RawSocket::close);
        }
    }
}
