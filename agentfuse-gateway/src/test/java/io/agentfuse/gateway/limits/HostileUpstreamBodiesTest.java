package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.chatBody;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Providers whose answers never end ({@link HostileUpstream}): {@code server.maxUpstreamBody} and
 * {@code server.maxSseEvent} fail the attempt instead of reading them whole, in a gateway whose
 * heap is bounded. {@link IsolatedGateway} checks the gateway's health after each.
 */
class HostileUpstreamBodiesTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void anUpstreamBodyDeclaredHugeFailsTheAttempt() {
        assertFailedAttempt(gateway.chat("huge-length"));
    }

    @Test
    void anEndlessChunkedUpstreamBodyFailsTheAttempt() {
        assertFailedAttempt(gateway.chat("endless-chunked"));
    }

    @Test
    void anEndlessUpstreamErrorBodyFailsTheAttempt() {
        assertFailedAttempt(gateway.chat("huge-error"));
    }

    @Test
    void anUpstreamEventThatNeverEndsFailsTheAttempt() {
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("endless-event").put("stream", true).encode()));

            assertFailedAttempt(socket.read(BOUND));
        }
    }

    private static void assertFailedAttempt(Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(502);
        assertThat(errorType(response)).isEqualTo("all_fallbacks_failed");
    }
}
