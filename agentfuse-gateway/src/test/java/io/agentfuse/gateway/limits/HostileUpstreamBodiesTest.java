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

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Providers whose answers never end ({@link HostileUpstream}): {@code server.maxUpstreamBody} and
 * {@code server.maxSseEvent} fail the attempt instead of reading them whole, or keeping the opening
 * of an answer that never begins, in a gateway whose heap is bounded; and one whose stream comes in
 * byte-sized chunks, relayed whole. {@link IsolatedGateway} checks the gateway's health after each.
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

    @Test
    void anUpstreamStreamWhoseAnswerNeverBeginsFailsTheAttempt() {
        // Events before the answer begins are kept (a retry or a fallback is still invisible): at most
        // server.maxSseEvent of them, not a heap's worth.
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("endless-preamble").put("stream", true).encode()));

            Response response = socket.read(BOUND);

            assertFailedAttempt(response);
            assertThat(response.body()).contains("without beginning an answer");
        }
    }

    @Test
    void aStreamInByteSizedChunksIsRelayedWholeAndInOrder() {
        // Given a provider that writes 2 000 events at once in HTTP chunks of 1 to 7 bytes, so that the
        // gateway reads many chunks at a time, events split across chunks and reads
        Response response;
        try (RawSocket socket = RawSocket.open(gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("crumbs-stream").put("stream", true).encode()));
            response = socket.read(BOUND);
        }

        // Then the caller gets every event, in order, and the end marker
        assertThat(response.status()).as(response.head()).isEqualTo(200);
        List<String> contents = new ArrayList<>();
        Matcher content = Pattern.compile("\"content\":\"(e[0-9]+)\"").matcher(response.body());
        while (content.find()) {
            contents.add(content.group(1));
        }
        assertThat(contents).hasSize(HostileUpstream.CRUMB_EVENTS);
        for (int i = 0; i < contents.size(); i++) {
            assertThat(contents.get(i)).isEqualTo("e" + i);
        }
        assertThat(response.body()).endsWith("data: [DONE]\n\n");
    }

    private static void assertFailedAttempt(Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(502);
        assertThat(errorType(response)).isEqualTo("all_fallbacks_failed");
    }
}
