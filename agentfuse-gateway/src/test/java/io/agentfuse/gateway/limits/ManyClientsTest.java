package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Many clients at once: beyond {@code maxConnections} they are refused while the others are served,
 * and bodies announced but not sent hold no more memory than the body allowance. The timeouts are
 * the product's (long): no connection of a case is closed for its slowness or idleness while the
 * case counts or measures, however busy the machine. {@link IsolatedGateway} checks the gateway's
 * health after each.
 */
class ManyClientsTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void bodiesAnnouncedButNotSentHoldNoMoreThanTheBodyAllowance() {
        // Given peers that announce long bodies and send one byte of each: 70 of 10 MB (read by
        // the body reader) and 70 of 1 MB (gathered by the request decoder) — 770 MB if a buffer of
        // the announced size were made for each, in a heap of 160 MiB
        List<RawSocket> sockets = openEach(140, i -> "POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST
                + "\r\nContent-Type: application/json\r\nContent-Length: " + (i % 2 == 0 ? 10_000_000 : 1_000_000)
                + "\r\n\r\n{");
        try {
            // When a real request with a 200 KB body comes meanwhile (its buffer grows as it arrives),
            // and the gateway's live heap is measured while they wait (headerTimeout, 30 s, ends them later)
            String padding = "u".repeat(200_000);
            String longBody = IsolatedGateway.chatBody("good").put("user", padding).encode();
            Response real;
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, longBody));
                real = socket.read(BOUND);
            }
            long heap = gateway.liveHeapKib();

            // Then the real request is served with its whole body, and the gateway holds at most its
            // allowance for bodies (an eighth of the heap) beyond its baseline
            assertThat(real.status()).as(real.body()).isEqualTo(200);
            assertThat(gateway.mock().requests()).anySatisfy(sent -> assertThat(sent.body()).contains(padding));
            long allowanceKib = 160L * 1024 / 8;
            assertThat(heap).as("live heap in KiB while 140 bodies are announced (baseline %d)", gateway.baselineHeapKib())
                    .isLessThanOrEqualTo(gateway.baselineHeapKib() + allowanceKib + 16L * 1024);
            assertThat(gateway.healthz().status()).isEqualTo(200);
        } finally {
            sockets.forEach(RawSocket::close);
        }
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedAndTheOthersServed() {
        // 170 keep-alive connections, 150 allowed: those served stay open (idleTimeout is 75 s), so no
        // place is given back to a later one while they are opened
        List<RawSocket> sockets = openEach(170, i -> "GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
        try {
            int served = 0;
            int refused = 0;
            for (RawSocket socket : sockets) {
                try {
                    assertThat(socket.read(BOUND).status()).isEqualTo(200);
                    served++;
                } catch (IllegalStateException closedWithoutAnswer) {
                    refused++;
                }
            }
            assertThat(refused).isGreaterThanOrEqualTo(20);
            assertThat(served).isPositive().isLessThanOrEqualTo(150);
        } finally {
            sockets.forEach(RawSocket::close);
            // The next check opens a connection: it must not race the gateway reading these closes
            gateway.waitUntilConnectionsAreServed();
        }
    }

    /** Opens {@code count} connections, writing {@code request.apply(i)} on the i-th as it opens. */
    private static List<RawSocket> openEach(int count, IntFunction<String> request) {
        List<RawSocket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RawSocket socket = RawSocket.open(gateway.port());
            sockets.add(socket);
            socket.send(request.apply(i));
        }
        return sockets;
    }
}
