package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call cut off after it was sent is charged its input (docs/design.md §11): a hedge that lost its
 * race cost its provider a prompt, so a hedged request counts the winner's usage and the loser's
 * input. Through a real gateway and mock provider on loopback.
 */
class CutOffCallsBudgetTest {

    private static final long LIMIT = 100_000;
    private static final String HEDGED = "hedge: { after: 200ms, maxShare: 100% }";
    /** Each call the mock answers uses 10 + 90 tokens. */
    private static final MockStep HUNDRED_TOKENS = MockStep.builder().inputTokens(10).outputTokens(90).build();

    private GatewayHarness gateway;

    /** A gateway whose {@code claude-sonnet-4} has {@code settings}, under one global budget. */
    private void start(String settings) {
        gateway = GatewayHarness.start(GatewayHarness.configWithPrimary(settings) + """
                budgets:
                  everything: { scope: global, tokens: 100000 }
                """);
        gateway.mock.defaultStep(HUNDRED_TOKENS);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aCompleteCallThatLostItsHedgeIsChargedItsInputBesideTheWinnersUsage() {
        start(HEDGED);
        long input = inputTokensOfTheRequest(); // spends 100
        gateway.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().delayMs(60_000).build());

        Reply hedged = gateway.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));
        Eventually.holds(gateway.vertx, () -> gateway.mock.requestsFor("claude-sonnet-4-5").get(1).clientDisconnected());

        assertThat(hedged.header("x-agentfuse-hedged")).isEqualTo("claude-haiku-4");
        assertThat(hedged.header("x-agentfuse-budget")).as("the answer's header counts the loser too")
                .startsWith("everything; scope=global; remaining=" + (LIMIT - 100 - 100 - input) + ";");
        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - (100 + input) - 100);
    }

    @Test
    void aStreamThatLostItsHedgeIsChargedItsInputBesideTheWinnersUsage() {
        start(HEDGED);
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().firstChunkDelayMs(60_000).build());

        StreamReply hedged = gateway.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());
        Eventually.holds(gateway.vertx, () -> gateway.mock.requestsFor("claude-sonnet-4-5").get(1).clientDisconnected());

        assertThat(hedged.header("x-agentfuse-hedged")).isEqualTo("claude-haiku-4");
        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - (100 + input) - 100);
    }

    @Test
    void theCallOfACallerWhoLeftIsChargedItsInput() {
        start(HEDGED);
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().delayMs(60_000).build());

        try (RawSocket caller = RawSocket.open(gateway.gateway.port())) {
            caller.send(RawSocket.post("/v1/messages", "127.0.0.1", anthropicRequest("claude-haiku-4", false).encode()));
            Eventually.holds(gateway.vertx, () -> gateway.mock.requestsFor("claude-haiku-4-5").size() == 1);
        }
        // The call is cut when the gateway sees the caller gone, after the exchange settled: charged then.
        Eventually.holdsAsked(gateway.vertx, () -> spent() == 100 + input);

        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - input - 100);
    }

    @Test
    void anAttemptCutAtItsTimeoutIsChargedItsInputBesideTheAnswerThatFollowed() {
        start("timeout: 300ms");
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().delayMs(60_000).build());

        Reply answered = gateway.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.header("x-agentfuse-attempts")).as("the first attempt timed out").isNotEqualTo("1");
        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - (input + 100) - 100);
    }

    @Test
    void aStreamCutAtItsFirstTokenLimitIsChargedItsInputBesideTheAnswerThatFollowed() {
        start("firstTokenTimeout: 300ms");
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().firstChunkDelayMs(60_000).build());

        StreamReply answered = gateway.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());

        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.header("x-agentfuse-attempts")).as("the first attempt stalled").isNotEqualTo("1");
        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - (input + 100) - 100);
    }

    @Test
    void aCallCutBeforeItWasSentIsNotCharged() throws IOException {
        try (FullListener never = FullListener.open()) {
            // A provider whose connection never opens: the attempt is cut at its timeout unsent.
            gateway = GatewayHarness.start(GatewayHarness.CONFIG
                    .replace("providers:\n", "providers:\n  unreachable: { type: anthropic, baseUrl: \"http://127.0.0.1:"
                            + never.port() + "\", apiKey: sk-ant-configured }\n")
                    .replace("models:\n", "models:\n  unreachable-model: { provider: unreachable, timeout: 300ms }\n") + """
                    budgets:
                      everything: { scope: global, tokens: 100000 }
                    """);
            gateway.mock.defaultStep(HUNDRED_TOKENS);
            inputTokensOfTheRequest();

            Reply cut = gateway.client.post("/v1/messages", anthropicRequest("unreachable-model", false));

            assertThat(cut.status()).as("the attempt timed out: %s", cut.body()).isEqualTo(504);
            assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - 100);
        }
    }

    @Test
    void aCallThatWasNotHedgedIsChargedWhatItUsedOnly() {
        start(HEDGED);
        inputTokensOfTheRequest();

        assertThat(remainingAfterAPlainCall()).isEqualTo(LIMIT - 100 - 100);
    }

    /**
     * The input tokens the gateway counts for {@code anthropicRequest}: a stream's header tells what
     * was reserved for it, its input and its {@code max_tokens} of 100. The stream then uses 100.
     */
    private long inputTokensOfTheRequest() {
        StreamReply stream = gateway.client.stream("/v1/messages", anthropicRequest("claude-sonnet-4", true), Map.of());
        assertThat(stream.status()).isEqualTo(200);
        assertThat(stream.header("x-agentfuse-hedged")).isNull();
        long input = LIMIT - remaining(stream.header("x-agentfuse-budget")) - 100;
        assertThat(input).isPositive();
        return input;
    }

    private long remainingAfterAPlainCall() {
        Reply plain = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
        assertThat(plain.status()).isEqualTo(200);
        return remaining(plain.header("x-agentfuse-budget"));
    }

    private long spent() {
        return gateway.client.get("/admin/budgets").json().getJsonArray("budgets").getJsonObject(0)
                .getJsonArray("windows").getJsonObject(0).getJsonObject("spent").getLong("tokens");
    }

    /**
     * A loopback listener that never accepts, its backlog filled: a connection to it never opens
     * (the kernel drops the handshake of one the backlog has no room for).
     */
    private record FullListener(ServerSocket server, List<Socket> queued) implements AutoCloseable {

        static FullListener open() throws IOException {
            ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            List<Socket> queued = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Socket socket = new Socket();
                queued.add(socket);
                try {
                    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 200);
                } catch (IOException full) {
                    return new FullListener(server, queued); // this one found no room: nor will the gateway's
                }
            }
            throw new IllegalStateException("the listener's backlog never filled");
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            for (Socket socket : queued) {
                socket.close();
            }
            server.close();
        }
    }

    private static long remaining(String header) {
        return Long.parseLong(header.replaceAll(".*remaining=(\\d+);.*", "$1"));
    }
}
