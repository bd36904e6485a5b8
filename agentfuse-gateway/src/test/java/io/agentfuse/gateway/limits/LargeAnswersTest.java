package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.BOUND;
import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.chatBody;
import static io.agentfuse.gateway.limits.IsolatedGateway.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * More large answers at once than the heap holds: forty callers ask at once for a 4 MB answer each
 * (within {@code maxUpstreamBody}), and reading, checking and relaying each takes several times its
 * size, more than the 160 MiB gateway has. Every caller is answered: whole, or 429 {@code overloaded}
 * with {@code Retry-After} for those whose answer found no room; and the gateway serves on. An
 * answer that ran the heap out while it was read used to fail outside its call: the call's timer was
 * already stopped and the call never ended, so all forty callers waited (more than two minutes, on
 * a 128 MiB gateway) while the rest of the gateway collected garbage. Asked in the provider's own
 * dialect (the answer passed through) and in Anthropic's (translated, where the heap can also run out).
 */
class LargeAnswersTest {

    private static final int CALLERS = 40;
    /**
     * How long a caller waits for its answer's head, and then for each next piece of its body: the
     * gateway's own bound, {@code big-answer}'s timeout (by then it has the answer or answers 504
     * itself), and {@link IsolatedGateway#BOUND} more for a loaded machine to write it. A caller that
     * hears nothing for longer was left without an answer: the hang this test is about. (A bound of
     * 30 s, half the product's 60 s timeout, failed on a 2-core machine with builds beside it: these
     * answers come slowly there, but they come.)
     */
    private static final Duration PATIENCE = IsolatedGateway.BIG_ANSWER_TIMEOUT.plus(BOUND);

    @RegisterExtension
    static final IsolatedGateway gateway = IsolatedGateway.withServerKeys("maxUpstreamBody: 16MB");

    @ParameterizedTest
    @ValueSource(strings = {"/v1/chat/completions", "/v1/messages"})
    void moreLargeAnswersThanTheHeapHoldsAreEachAnsweredWholeOrRefusedForAMoment(String path) {
        ExecutorService readers = Executors.newFixedThreadPool(CALLERS);
        List<RawSocket> sockets = new ArrayList<>();
        try {
            List<CompletableFuture<Response>> answers = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                RawSocket socket = RawSocket.open(gateway.port());
                sockets.add(socket);
                socket.send(RawSocket.post(path, HOST, request(path)));
                int caller = i + 1;
                // Each caller reads its answer as it comes, as real clients do.
                answers.add(CompletableFuture.supplyAsync(() -> answerOf(socket, caller, path), readers));
            }
            List<String> hung = new ArrayList<>();
            int whole = 0;
            int refused = 0;
            for (CompletableFuture<Response> answer : answers) {
                Response response;
                try {
                    response = answer.join();
                } catch (CompletionException unanswered) {
                    hung.add(unanswered.getCause().getMessage());
                    continue;
                }
                if (response.status() == 200) {
                    assertThat(response.body().length()).isGreaterThan(HostileUpstream.BIG_ANSWER_CHARS);
                    whole++;
                } else {
                    assertThat(response.status()).as(response.body()).isEqualTo(429);
                    assertThat(errorType(response)).isEqualTo("overloaded");
                    assertThat(response.header("retry-after")).isEqualTo("1");
                    refused++;
                }
            }
            assertThat(hung).as("callers left without a whole answer (%d whole, %d refused)", whole, refused).isEmpty();
            System.out.printf("[limits] %d large answers at once on %s: %d whole, %d refused for a moment%n", CALLERS, path,
                    whole, refused);
        } finally {
            sockets.forEach(RawSocket::close);
            readers.shutdownNow();
        }
    }

    /** The answer {@code caller} reads from {@code socket}; fails naming what it waited for in vain. */
    private static Response answerOf(RawSocket socket, int caller, String path) {
        String who = "caller " + caller + " of " + CALLERS + " on " + path;
        String head;
        try {
            head = socket.head(PATIENCE);
        } catch (IllegalStateException silent) {
            throw new IllegalStateException(who + " got no response head within " + PATIENCE + ", though the gateway"
                    + " answers 504 itself once big-answer's timeout of " + IsolatedGateway.BIG_ANSWER_TIMEOUT
                    + " has passed: the call was left unanswered (" + silent.getMessage() + ")", silent);
        }
        try {
            return socket.afterHead(head, PATIENCE);
        } catch (IllegalStateException stalled) {
            throw new IllegalStateException(who + " got the head \"" + head.lines().findFirst().orElse("")
                    + "\" but not the whole body, reading all the while: the gateway stopped writing the answer"
                    + " (nothing for " + PATIENCE + ") or cut the connection (" + stalled.getCause() + ")", stalled);
        }
    }

    /** A request for {@code big-answer} in the dialect of {@code path}. */
    private static String request(String path) {
        if (path.equals("/v1/messages")) {
            return new JsonObject().put("model", "big-answer").put("max_tokens", 1024).put("messages", new JsonArray()
                    .add(new JsonObject().put("role", "user").put("content", "Hi"))).encode();
        }
        return chatBody("big-answer").encode();
    }
}
