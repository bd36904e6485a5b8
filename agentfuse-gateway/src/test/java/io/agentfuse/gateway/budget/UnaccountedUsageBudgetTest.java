package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An answer whose provider gives no account of its tokens (an OpenAI-compatible server that ignores
 * {@code stream_options.include_usage}, or reports none) is charged its reservation, as a stream
 * whose final account never came is (docs/design.md §11): regression, it was charged nothing, so a
 * budget in front of such a server never ran out. Through a real gateway and mock provider on loopback.
 */
class UnaccountedUsageBudgetTest {

    private static final long LIMIT = 100_000;
    /** Each call the mock answers uses 10 + 90 tokens. */
    private static final MockStep HUNDRED_TOKENS = MockStep.builder().inputTokens(10).outputTokens(90).build();
    /** An answer that tells no tokens at all. */
    private static final MockStep NO_ACCOUNT = MockStep.builder().inputTokens(0).outputTokens(0).build();

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
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
    void anAnswerWithoutAnAccountOfItsTokensIsChargedItsReservation() {
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-haiku-4-5", NO_ACCOUNT);

        Reply answered = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(answered.status()).isEqualTo(200);
        assertThat(remaining(answered.header("x-agentfuse-budget"))).isEqualTo(LIMIT - 100 - (input + 100));
        assertThat(spent()).isEqualTo(100 + input + 100);
    }

    @Test
    void aStreamThatEndsWithoutAnAccountOfItsTokensIsChargedItsReservation() {
        long input = inputTokensOfTheRequest();
        gateway.mock.scriptForModel("claude-haiku-4-5", NO_ACCOUNT);

        StreamReply answered = gateway.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.cutOff()).isFalse();
        Eventually.holdsAsked(gateway.vertx, () -> spent() > 100); // settled as the stream ends
        assertThat(spent()).isEqualTo(100 + input + 100);
    }

    /**
     * The input tokens the gateway counts for {@code anthropicRequest}: a stream's header tells what
     * was reserved for it, its input and its {@code max_tokens} of 100. The stream then uses 100.
     */
    private long inputTokensOfTheRequest() {
        StreamReply stream = gateway.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());
        assertThat(stream.status()).isEqualTo(200);
        long input = LIMIT - remaining(stream.header("x-agentfuse-budget")) - 100;
        assertThat(input).isPositive();
        Eventually.holdsAsked(gateway.vertx, () -> spent() == 100);
        return input;
    }

    private long spent() {
        return gateway.client.get("/admin/budgets").json().getJsonArray("budgets").getJsonObject(0)
                .getJsonArray("windows").getJsonObject(0).getJsonObject("spent").getLong("tokens");
    }

    private static long remaining(String header) {
        return Long.parseLong(header.replaceAll(".*remaining=(\\d+);.*", "$1"));
    }
}
