package io.agentfuse.gateway.state;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.redis.RedisStateStore;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Gateways with {@code state.store: redis} on one real redis-server share their breakers (docs/design.md §8). */
class SharedStateGatewayTest {

    /** A hang guard, not a measure: connecting to Redis and hearing from the other gateway may take long on a busy machine. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Map<String, String> TOKEN = Map.of("authorization", "Bearer " + GatewayHarness.ADMIN_TOKEN);

    private static RedisServerProcess redis;

    private final String keyPrefix = "gateway-test-" + UUID.randomUUID() + ":";
    private final List<GatewayHarness> gateways = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void stopGateways() {
        gateways.forEach(GatewayHarness::close);
    }

    /** A gateway of {@link GatewayHarness#CONFIG} whose breakers stay open 5 minutes, sharing state on {@code uri}. */
    private GatewayHarness gateway(String uri) {
        GatewayHarness gateway = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5m") + """
                state:
                  store: redis
                  redis: { uri: "%s", keyPrefix: "%s" }
                """.formatted(uri, keyPrefix));
        gateways.add(gateway);
        return gateway;
    }

    private static JsonObject breaker(GatewayHarness gateway, String name) {
        return gateway.client.get("/admin/breakers/" + name).json();
    }

    @Test
    void aTripThroughOneGatewayIsSeenInTheOthersAdminApi() {
        GatewayHarness a = gateway(redis.uri());
        GatewayHarness b = gateway(redis.uri());
        Eventually.await("B reads its breakers from Redis", WAIT,
                () -> gatewayStore(b).isConnected() && gatewayStore(a).isConnected());
        a.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).times(3).build());

        for (int i = 0; i < 3; i++) {
            a.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
        }

        assertThat(breaker(a, "model:claude-haiku-4").getString("state")).isEqualTo("OPEN");
        Eventually.await("B's admin API shows the breaker open", WAIT,
                () -> breaker(b, "model:claude-haiku-4").getString("state").equals("OPEN"));
        JsonObject onB = breaker(b, "model:claude-haiku-4");
        assertThat(onB.getString("reason")).isEqualTo(breaker(a, "model:claude-haiku-4").getString("reason"));
        assertThat(onB.getJsonObject("counts").getLong("consecutive5xx")).isEqualTo(3L);
        assertThat(onB.getString("openUntil")).isNotNull();
        assertThat(b.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void anOperatorActionOnOneGatewayAppliesOnTheOther() {
        GatewayHarness a = gateway(redis.uri());
        GatewayHarness b = gateway(redis.uri());
        Eventually.await("both connect", WAIT, () -> gatewayStore(a).isConnected() && gatewayStore(b).isConnected());

        Reply opened = b.client.send(HttpMethod.POST, "/admin/breakers/model:gpt-4o-mini/open", Buffer.buffer(), TOKEN);

        assertThat(opened.status()).isEqualTo(200);
        Eventually.await("A shows it forced open", WAIT,
                () -> breaker(a, "model:gpt-4o-mini").getString("state").equals("FORCED_OPEN"));
    }

    @Test
    void aGatewayStartsAndServesWhileItsRedisIsNotThere() {
        GatewayHarness alone = gateway("redis://127.0.0.1:" + unusedPort());

        Reply health = alone.client.get("/healthz");
        alone.breaker("claude-haiku-4").forceOpen("works locally");

        assertThat(health.status()).isEqualTo(200);
        assertThat(breaker(alone, "model:claude-haiku-4").getString("state")).isEqualTo("FORCED_OPEN");
    }

    private static RedisStateStore gatewayStore(GatewayHarness gateway) {
        return (RedisStateStore) gateway.gateway.runtime().registry().stateStore().orElseThrow();
    }

    private static int unusedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
