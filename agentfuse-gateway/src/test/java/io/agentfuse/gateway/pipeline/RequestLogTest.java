package io.agentfuse.gateway.pipeline;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Every answer carries {@code x-request-id}; a request that ends in a gateway error is one log line with that id. */
class RequestLogTest {

    private final GatewayHarness harness = GatewayHarness.start();
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(RequestLog.class);

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void stop() {
        logger.detachAppender(lines);
        harness.close();
    }

    @Test
    void theCallersRequestIdIsKeptAndAnAnswerIsNotLogged() {
        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                Map.of("x-request-id", "agent-7:turn-12"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-request-id")).isEqualTo("agent-7:turn-12");

        // A failing request after it: once its line is there, the answer's would have been too.
        harness.mock.defaultStep(MockStep.builder().status(500).build());
        harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false), Map.of("x-request-id", "after"));
        Eventually.holds(harness.vertx, () -> lines.list.size() > 0);

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                .singleElement().asString().startsWith("request after ");
    }

    @Test
    void aMissingOrUnsafeRequestIdIsReplacedByANewOne() {
        Reply plain = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
        Reply unsafe = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                Map.of("x-request-id", "a b\"<script>"));

        assertThat(plain.header("x-request-id")).matches("[0-9a-f]{16}");
        assertThat(unsafe.header("x-request-id")).matches("[0-9a-f]{16}").isNotEqualTo(plain.header("x-request-id"));
    }

    @Test
    void aRequestThatEndsInAGatewayErrorIsOneWarningWithItsId() {
        harness.mock.defaultStep(MockStep.builder().status(500).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                Map.of("x-request-id", "r-502", "authorization", "Bearer sk-secret-of-the-caller"));

        assertThat(reply.status()).isEqualTo(502);
        // The line is written when the exchange ends, which may be just after the caller has read the answer.
        Eventually.holds(harness.vertx, () -> lines.list.size() > 0);
        assertThat(lines.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getFormattedMessage()).startsWith("request r-502 for model gpt-4o-mini ended 502 after ")
                    .contains("passed over: gpt-4o-mini=SERVER_ERROR").doesNotContain("sk-").doesNotContain("Hi");
            assertThat(line.getKeyValuePairs()).anySatisfy(pair -> {
                assertThat(pair.key).isEqualTo("requestId");
                assertThat(pair.value).isEqualTo("r-502");
            });
        });
    }

    @Test
    void requestsTurnedAwayByOpenBreakersAreNotLoggedOneByOne() {
        try (GatewayHarness longOpen = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5m"))) {
            longOpen.mock.defaultStep(MockStep.builder().status(500).build());
            for (int i = 0; i < 3; i++) {
                longOpen.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));
            }
            Eventually.holds(longOpen.vertx, () -> lines.list.size() == 3);

            Reply rejected = longOpen.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                    Map.of("x-request-id", "rejected"));
            longOpen.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false), Map.of("x-request-id", "after"));
            Eventually.holds(longOpen.vertx, () -> lines.list.size() == 4);

            assertThat(rejected.status()).isEqualTo(503);
            assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                    .noneMatch(line -> line.startsWith("request rejected "))
                    .last().asString().startsWith("request after ");
        }
    }

    @Test
    void aRequestCutByTheShutdownAfterItsProviderWasCalledIsLogged() throws Exception {
        try (GatewayHarness stopping = GatewayHarness.start(GatewayHarness.CONFIG.replace("  port: 0\n",
                "  port: 0\n  drainDelay: 0s\n  shutdownGrace: 0s\n"))) {
            stopping.mock.scriptForModel("gpt-4o-mini", MockStep.builder().delayMs(60_000).build());
            var pending = stopping.vertx.executeBlocking(() -> stopping.client.post("/v1/chat/completions",
                    openAiRequest("gpt-4o-mini", false), Map.of("x-request-id", "cut-by-stop")));
            Eventually.holds(stopping.vertx, () -> stopping.requestsFor("gpt-4o-mini") > 0);

            stopping.gateway.shutDown().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Reply cut = pending.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(cut.status()).isEqualTo(503);
            Eventually.holds(stopping.vertx, () -> lines.list.size() > 0);
            assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                    .singleElement().asString().startsWith("request cut-by-stop for model gpt-4o-mini ended 503 after ");
        }
    }
}
