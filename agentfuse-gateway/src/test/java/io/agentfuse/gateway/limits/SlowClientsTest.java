package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Slow and idle clients (slowloris and its kin): what they hold is taken back within
 * {@code headerTimeout} and {@code idleTimeout}, set short here (5 s) so that the cases stay fast,
 * yet long enough for every ordinary request of the cases to arrive whole on a loaded machine. Each
 * timeout is triggered by a peer that never sends what it owes, so no case depends on how fast
 * anything runs. {@link IsolatedGateway} checks the gateway's health after each.
 */
class SlowClientsTest {

    @RegisterExtension
    static final IsolatedGateway gateway = IsolatedGateway.withServerKeys("headerTimeout: 5s", "idleTimeout: 5s");

    @Test
    void halfAHeadIsClosed() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Ty");

            assertThat(socket.closedWithin(BOUND)).isTrue();
        }
    }

    @Test
    void aHeadTrickledByteByByteIsClosedThoughItsBytesKeepComing() {
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            // A header value without end, one byte every 50 ms: the connection is never silent and
            // its head never complete, and it stays far below the head's size limit (8 KB) for longer
            // than the case waits, so only headerTimeout can end it.
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nX-Padding: ");
            trickle.scheduleAtFixedRate(() -> socket.send("p"), 50, 50, TimeUnit.MILLISECONDS);

            // Closed without an answer: a head over the size limit would have been answered 431.
            assertThat(socket.rest(BOUND)).isEmpty();
        } finally {
            trickle.shutdownNow();
        }
    }

    @Test
    void aPromisedBodyThatNeverComesIsAnswered408() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            assertPromisedBodyTimesOut(socket);
        }
    }

    @Test
    void aLaterRequestOnAKeepAliveConnectionWhoseBodyNeverComesIsAnswered408() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            assertThat(socket.read(BOUND).status()).isEqualTo(200);
            assertPromisedBodyTimesOut(socket);
        }
    }

    /** A request promising 100 bytes of body and sending 9 is answered 408 and its connection closed. */
    private static void assertPromisedBodyTimesOut(RawSocket socket) {
        socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST
                + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\":");

        Response response = socket.read(BOUND);
        assertThat(response.status()).isEqualTo(408);
        assertThat(errorType(response)).isEqualTo("request_timeout");
        assertThat(socket.closedWithin(BOUND)).isTrue();
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            assertThat(socket.read(BOUND).status()).isEqualTo(200);

            assertThat(socket.closedWithin(BOUND)).isTrue();
        }
    }

    @Test
    void aRequestWaitingLongerThanIdleTimeoutForItsProviderIsNotCut() {
        // Given a request whose provider holds its answer
        CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(() -> gateway.chat("held"));
        Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 1);

        // When idleTimeout has run out since: a keep-alive connection that went idle after the request
        // reached the provider has been closed for its idleness
        try (RawSocket idle = RawSocket.open(gateway.port())) {
            idle.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            assertThat(idle.read(BOUND).status()).isEqualTo(200);
            assertThat(idle.closedWithin(BOUND)).as("the idle connection is closed").isTrue();
        } finally {
            gateway.hostile().releaseHeld();
        }

        // Then the waiting request is answered all the same
        assertThat(waiting.join().status()).isEqualTo(200);
    }
}
