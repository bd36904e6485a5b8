package io.agentfuse.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /readyz} against a real gateway on loopback (docs/design.md §14): 200 while serving, 503
 * {@code draining} from the moment a graceful stop begins, while {@code /healthz} (liveness) stays
 * 200 and requests are still served, each answer closing its connection; a request still waiting
 * for its provider when the grace is over is answered {@code 503 shutting_down}, retryable.
 */
class ReadinessTest {

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aServingGatewayIsReady() {
        harness = GatewayHarness.start();

        Reply ready = harness.client.get("/readyz");

        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.json().getString("status")).isEqualTo("ready");
        assertThat(harness.client.get("/healthz").status()).isEqualTo(200);
    }

    @Test
    void aHealthCheckerThatSendsHeadGetsTheStatusWithoutABody() {
        harness = GatewayHarness.start();

        Reply healthy = harness.client.send(HttpMethod.HEAD, "/healthz", Buffer.buffer(), Map.of());
        Reply ready = harness.client.send(HttpMethod.HEAD, "/readyz", Buffer.buffer(), Map.of());

        assertThat(healthy.status()).isEqualTo(200);
        assertThat(ready.status()).isEqualTo(200);
        assertThat(healthy.body()).isEmpty();
        assertThat(healthy.header("content-type")).startsWith("application/json");
    }

    @Test
    void aDrainingGatewayIsNotReadyButAliveAndStillServes() throws Exception {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("  port: 0\n", "  port: 0\n  drainDelay: 1h\n"));

        Future<Void> stopped = harness.gateway.shutDown();
        Reply ready = harness.client.get("/readyz");
        Reply models = harness.client.get("/v1/models");

        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.json().getString("status")).isEqualTo("draining");
        assertThat(harness.client.get("/healthz").status()).as("a draining gateway is alive").isEqualTo(200);
        assertThat(models.status()).isEqualTo(200);
        assertThat(models.headers().get("connection")).isEqualTo("close");
        assertThat(stopped.isComplete()).as("the drain lasts drainDelay").isFalse();
    }

    @Test
    void aRequestStillWaitingWhenTheGraceIsOverIsAnsweredShuttingDown() throws Exception {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("  port: 0\n",
                "  port: 0\n  drainDelay: 0s\n  shutdownGrace: 0s\n"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().delayMs(60_000).build());
        var pending = harness.vertx.executeBlocking(() -> harness.client.post("/v1/chat/completions",
                GatewayHarness.openAiRequest("gpt-4o-mini", false)));
        while (harness.requestsFor("gpt-4o-mini") == 0) {
            TimeUnit.MILLISECONDS.sleep(10);
        }

        harness.gateway.shutDown().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        Reply answer = pending.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.json().getJsonObject("error").getString("type")).isEqualTo("shutting_down");
        assertThat(answer.headers().get("x-should-retry")).isEqualTo("true");
    }
}
