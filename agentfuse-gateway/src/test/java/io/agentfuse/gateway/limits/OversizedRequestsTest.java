package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One request under the body limit that is expensive to handle: it is refused or handled, and
 * {@code /healthz} keeps answering meanwhile — in a gateway whose heap is bounded
 * ({@link IsolatedGateway#JVM_FLAGS}), so that a deep copy would show as well. That the counting is
 * handed to workers rather than done on the event loop is shown, without timing, by
 * {@code ContextLadderTest}; here no answer is timed, since a busy machine delays every answer.
 */
class OversizedRequestsTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void aQuarterMillionMessagesAreRefusedWithoutStallingOthers() {
        JsonArray messages = new JsonArray();
        for (int i = 0; i < 250_000; i++) {
            messages.add(new JsonObject().put("role", "user").put("content", "a"));
        }
        String body = new JsonObject().put("model", "good").put("messages", messages).encode();
        assertThat(body.length()).isGreaterThan(7_000_000);

        Response response = gateway.whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, body));
                return socket.read(BOUND);
            }
        });

        assertThat(response.status()).isEqualTo(400);
        assertThat(errorType(response)).isEqualTo("invalid_request");
        assertThat(response.body()).contains("server.maxMessages");
    }

    @Test
    void aMessageOfMillionsOfLettersWithoutASpaceIsCountedWithinTheHeap() {
        // The tokenizer merges one piece's byte pairs in about a hundred bytes per char: counted as
        // one piece, these six million letters would need several times the child's 160 MiB heap.
        JsonObject message = new JsonObject().put("role", "user").put("content", "x".repeat(6_000_000));
        String body = new JsonObject().put("model", "windowed").put("messages", new JsonArray().add(message)).encode();

        Response response = gateway.whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, body));
                return socket.read(BOUND);
            }
        });

        assertThat(response.status()).as(response.body()).isEqualTo(413);
        assertThat(errorType(response)).isEqualTo("context_window_full");
        assertThat(response.body()).contains("750006"); // 6 000 000 / 8 tokens, and the message's framing
    }

    @Test
    void aLongConversationIsMeasuredWhileHealthzKeepsAnswering() {
        String body = IsolatedGateway.longTalk(9_000).encode();

        Response response = gateway.whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, body));
                return socket.read(BOUND);
            }
        });

        assertThat(response.status()).as(response.body()).isIn(200, 413);
        if (response.status() == 413) {
            assertThat(errorType(response)).isEqualTo("context_window_full");
        }
    }
}
