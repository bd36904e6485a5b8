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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
                // Each caller reads its answer as it comes, as real clients do.
                answers.add(CompletableFuture.supplyAsync(() -> socket.read(BOUND), readers));
            }
            int whole = 0;
            int refused = 0;
            for (CompletableFuture<Response> answer : answers) {
                Response response = answer.join();
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
            System.out.printf("[limits] %d large answers at once on %s: %d whole, %d refused for a moment%n", CALLERS, path,
                    whole, refused);
        } finally {
            sockets.forEach(RawSocket::close);
            readers.shutdownNow();
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
