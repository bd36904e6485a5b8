package io.agentfuse.gateway.admin;

import io.agentfuse.gateway.metrics.TrafficSecond;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /admin/stats}: the last five minutes of answered requests, second by second, over real HTTP. */
class StatsEndpointTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void countsRequestsErrorsAndLatencyPerCompleteSecond() {
        for (int i = 0; i < 3; i++) {
            assertThat(harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false)).status()).isEqualTo(200);
        }
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).build());
        assertThat(harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false)).status()).isEqualTo(502);
        assertThat(harness.client.post("/v1/messages", anthropicRequest("no-such-model", false)).status()).isEqualTo(404);

        Eventually.holds(harness.vertx, () -> harness.gateway.metrics().recentTraffic().lastSeconds().stream()
                .mapToLong(TrafficSecond::requests).sum() == 5);
        Reply reply = harness.client.get("/admin/stats");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("application/json");
        JsonObject stats = reply.json();
        assertThat(stats.getInteger("horizonSeconds")).isEqualTo(300);
        List<JsonObject> seconds = seconds(stats.getJsonArray("seconds"));
        assertThat(seconds).hasSize(300);
        assertThat(seconds.stream().mapToLong(second -> second.getLong("requests")).sum()).isEqualTo(5);
        assertThat(seconds.stream().mapToLong(second -> second.getLong("errors")).sum())
                .as("the 502 is an error, the caller's 404 is not").isEqualTo(1);
        IntStream.range(1, seconds.size()).forEach(i -> assertThat(Instant.parse(seconds.get(i).getString("at")))
                .isEqualTo(Instant.parse(seconds.get(i - 1).getString("at")).plusSeconds(1)));
        assertThat(seconds).allSatisfy(second -> {
            if (second.getLong("requests") == 0) {
                assertThat(second.getValue("p50Ms")).isNull();
                assertThat(second.getValue("maxMs")).isNull();
            } else {
                assertThat(second.getDouble("p50Ms")).isPositive().isLessThanOrEqualTo(second.getDouble("p95Ms"));
                assertThat(second.getDouble("p95Ms")).isLessThanOrEqualTo(second.getDouble("maxMs"));
            }
        });
    }

    @Test
    void readingNeedsNoToken() {
        assertThat(harness.client.get("/admin/stats").status()).isEqualTo(200);
    }

    private static List<JsonObject> seconds(JsonArray array) {
        return IntStream.range(0, array.size()).mapToObj(array::getJsonObject).toList();
    }
}
