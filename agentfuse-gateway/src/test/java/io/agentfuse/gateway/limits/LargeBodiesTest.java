package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large request bodies are taken on only as far as the server's budget for them goes (an eighth
 * of the child's 160 MiB heap: about 19 MiB, {@link io.agentfuse.gateway.server.LargeBodies}): two
 * 8 MB requests held by a provider that has not answered yet fill it, a third is refused at once
 * with 429 {@code overloaded} and a {@code Retry-After} — sent chunked, once a mebibyte of it has
 * come; expecting {@code 100-continue}, before its body is sent — but one over the body limit
 * with 413, as ever, never told to retry — and once the two are answered the next is served. {@link IsolatedGateway} checks the gateway's health after the case.
 */
class LargeBodiesTest {

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void aLargeBodyPastTheBudgetIsRefusedAtOnceAndServedOnceThereIsRoom() {
        String held = largeChat("held");
        try (RawSocket first = RawSocket.open(gateway.port()); RawSocket second = RawSocket.open(gateway.port())) {
            first.send(RawSocket.post("/v1/chat/completions", HOST, held));
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 1);
            second.send(RawSocket.post("/v1/chat/completions", HOST, held));
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 2);

            Response refused;
            Response refusedChunked;
            Response refusedBeforeItsBody;
            Response refusedTokenCount;
            try (RawSocket third = RawSocket.open(gateway.port());
                 RawSocket chunked = RawSocket.open(gateway.port());
                 RawSocket expecting = RawSocket.open(gateway.port());
                 RawSocket counting = RawSocket.open(gateway.port())) {
                third.send(RawSocket.post("/v1/chat/completions", HOST, largeChat("good")));
                refused = third.read(BOUND);
                // Its length not announced, the body counts as the largest there may be once a mebibyte has come.
                chunked.send(RawSocket.postChunked("/v1/chat/completions", HOST, largeChat("good"), 64 * 1024));
                refusedChunked = chunked.read(BOUND);
                // curl's way with a body over 1 MB: it waits for 100 Continue before sending it, and is answered first.
                expecting.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: "
                        + "application/json\r\nExpect: 100-continue\r\nContent-Length: 8000000\r\n\r\n");
                refusedBeforeItsBody = expecting.read(BOUND);
                // Every route reads its body within the budget: Claude Code's token counts too.
                counting.send(RawSocket.postChunked("/v1/messages/count_tokens", HOST, largeChat("good"), 64 * 1024));
                refusedTokenCount = counting.read(BOUND);
            }

            for (Response response : List.of(refused, refusedChunked, refusedBeforeItsBody, refusedTokenCount)) {
                assertThat(response.status()).as(response.body()).isEqualTo(429);
                assertThat(errorType(response)).isEqualTo("overloaded");
                assertThat(response.header("retry-after")).isEqualTo("1");
            }
            assertThat(refusedChunked.body()).contains("does not announce its length");
            // A body over server.maxBodySize (10 MB here) is refused for its size, finally, never told to retry.
            Response tooLarge;
            try (RawSocket fourth = RawSocket.open(gateway.port())) {
                fourth.send(RawSocket.post("/v1/chat/completions", HOST, largeChat("good", 9_000_000)));
                tooLarge = fourth.read(BOUND);
            }
            assertThat(tooLarge.status()).as(tooLarge.body()).isEqualTo(413);
            assertThat(errorType(tooLarge)).isEqualTo("request_too_large");
            gateway.hostile().releaseHeld();
            for (RawSocket answered : List.of(first, second)) {
                Response response = answered.read(BOUND);
                assertThat(response.status()).as(response.body()).isEqualTo(200);
            }
        }

        Response later = gateway.whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(gateway.port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, largeChat("good")));
                return socket.read(BOUND);
            }
        });

        assertThat(later.status()).as(later.body()).isEqualTo(200);
    }

    /**
     * A chunked body counts as the largest body there may be only until all of it has come, then as
     * what it is: a 2 MB one held for its answer counted 10 MB until then, and left the budget room
     * for one 8 MB request beside it instead of two.
     */
    @Test
    void aChunkedBodyCountsAsWhatItIsOnceItHasArrived() {
        String held = largeChat("held");
        try (RawSocket chunked = RawSocket.open(gateway.port());
             RawSocket first = RawSocket.open(gateway.port());
             RawSocket second = RawSocket.open(gateway.port())) {
            chunked.send(RawSocket.postChunked("/v1/chat/completions", HOST, largeChat("held", 1_500_000), 64 * 1024));
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 1);
            first.send(RawSocket.post("/v1/chat/completions", HOST, held));
            Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 2);
            second.send(RawSocket.post("/v1/chat/completions", HOST, held));
            try {
                Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() == 3);
            } finally {
                gateway.hostile().releaseHeld(); // whatever it was: the next case finds nothing held
            }

            for (RawSocket answered : List.of(chunked, first, second)) {
                Response response = answered.read(BOUND);
                assertThat(response.status()).as(response.body()).isEqualTo(200);
            }
        }
    }

    /**
     * A stream lets its request's bytes go once its answer begins (unless it may be continued,
     * {@link StreamRetentionTest}), and its large body stops counting then: two 8 MB conversations
     * whose answers were streaming held the budget for as long as the answers ran, and a third
     * agent's turn was refused 429 meanwhile.
     */
    @Test
    void aStreamLeavesTheBudgetOnceItsAnswerHasBegun() {
        String streamed = new JsonObject(largeChat("held-stream")).put("stream", true).encode();
        try (RawSocket first = RawSocket.open(gateway.port());
             RawSocket second = RawSocket.open(gateway.port());
             RawSocket third = RawSocket.open(gateway.port())) {
            first.send(RawSocket.post("/v1/chat/completions", HOST, streamed));
            second.send(RawSocket.post("/v1/chat/completions", HOST, streamed));
            String firstHead = first.head(BOUND);
            String secondHead = second.head(BOUND);

            third.send(RawSocket.post("/v1/chat/completions", HOST, largeChat("good")));
            Response served;
            try {
                served = third.read(BOUND);
            } finally {
                gateway.hostile().releaseHeld(); // whatever it was: the next case finds nothing held
            }

            assertThat(served.status()).as(served.body()).isEqualTo(200);
            assertThat(first.afterHead(firstHead, BOUND).body()).contains("[DONE]");
            assertThat(second.afterHead(secondHead, BOUND).body()).contains("[DONE]");
        }
    }

    /** A chat request of about 8 MB for {@code model}: a question about a screenshot, sent as a data URL. */
    private static String largeChat(String model) {
        String body = largeChat(model, 6_000_000);
        assertThat(body.length()).isBetween(8_000_000, 9_000_000);
        return body;
    }

    /**
     * Bodies of an agent's conversation, under a mebibyte, are counted too: before, only bodies of a
     * mebibyte or more were, and three hundred 650 KB conversations at once against a provider taking
     * 5 s wedged a 128 MiB gateway in back-to-back full collections that went on after every caller
     * had given up; so did chunked ones after that. Sent one after another to a provider that holds
     * them, 700 KB conversations are taken on until the budget (an eighth of the heap, about 19 MiB) is
     * full, and the next is refused; a chunked one counts as a mebibyte, the most it may be, until it
     * has come whole, then as what it is.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void conversationsUnderAMebibyteAreTakenOnOnlyWithinTheBudget(boolean chunked) {
        String conversation = conversation("held", 700_000);
        List<RawSocket> sockets = new ArrayList<>();
        List<CompletableFuture<Response>> answers = new ArrayList<>();
        ExecutorService readers = Executors.newCachedThreadPool();
        try {
            while (sockets.size() < 60 && (answers.isEmpty() || !answers.get(answers.size() - 1).isDone())) {
                int heldBefore = gateway.hostile().heldAnswers();
                RawSocket socket = RawSocket.open(gateway.port());
                sockets.add(socket);
                socket.send(chunked ? RawSocket.postChunked("/v1/chat/completions", HOST, conversation, 32 * 1024)
                        : RawSocket.post("/v1/chat/completions", HOST, conversation));
                CompletableFuture<Response> answer = CompletableFuture.supplyAsync(() -> socket.read(BOUND), readers);
                answers.add(answer);
                Eventually.holds(gateway.vertx(), () -> gateway.hostile().heldAnswers() > heldBefore || answer.isDone());
            }
            CompletableFuture<Response> last = answers.get(answers.size() - 1);
            assertThat(last).as("refused before sixty were held").isDone();
            gateway.hostile().releaseHeld();

            Response refused = last.join();
            assertThat(refused.status()).as(refused.body()).isEqualTo(429);
            assertThat(errorType(refused)).isEqualTo("overloaded");
            assertThat(refused.header("retry-after")).isEqualTo("1");
            long heldBytes = (answers.size() - 1) * (long) conversation.length();
            assertThat(heldBytes).as("the bodies held when the next was refused").isBetween(16L << 20, 20L << 20);
            for (CompletableFuture<Response> answered : answers.subList(0, answers.size() - 1)) {
                assertThat(answered.join().status()).isEqualTo(200);
            }
        } finally {
            gateway.hostile().releaseHeld(); // whatever happened: the next case finds nothing held
            sockets.forEach(RawSocket::close);
            readers.shutdownNow();
        }
    }

    /** A chat request for {@code model} whose turns of text come to {@code chars} characters. */
    private static String conversation(String model, int chars) {
        JsonArray messages = new JsonArray();
        String turn = "The build failed again; here is the whole log. ".repeat(1_000);
        for (int written = 0; written < chars; written += turn.length()) {
            messages.add(new JsonObject().put("role", messages.size() % 2 == 0 ? "user" : "assistant").put("content", turn));
        }
        return new JsonObject().put("model", model).put("messages", messages.add(new JsonObject()
                .put("role", "user").put("content", "Why?"))).encode();
    }

    /** A chat request for {@code model} with a screenshot of {@code imageBytes} bytes (base64: 4/3 as many). */
    private static String largeChat(String model, int imageBytes) {
        String screenshot = "data:image/png;base64," + Base64.getEncoder().encodeToString(new byte[imageBytes]);
        return new JsonObject().put("model", model).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "What does this screenshot show?"))
                        .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject().put("url", screenshot))))))
                .encode();
    }
}
