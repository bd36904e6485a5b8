package io.agentfuse.redis;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RawRedis;
import io.agentfuse.redis.testing.RedisServerProcess;
import io.agentfuse.redis.testing.SmallHeapFleetMember;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 30 MB message on the fleet's channel costs an instance with a small heap nothing but a
 * reconnect (regression: it ended in an OutOfMemoryError in the Redis client). The instance runs in
 * a process of its own with a 64 MB heap, as a small container would give it.
 */
class LargeMessageHeapTest {

    private static final String MODEL = "model:heap";

    private final RedisServerProcess redis = RedisServerProcess.start();
    private final String prefix = "heap-" + UUID.randomUUID() + ":";
    private final List<String> output = new CopyOnWriteArrayList<>();
    private Process member;
    private RedisStateStore store;

    @AfterEach
    void stop() throws InterruptedException {
        if (member != null) {
            member.destroyForcibly();
            member.waitFor(30, TimeUnit.SECONDS);
        }
        if (store != null) {
            store.close();
        }
        redis.close();
    }

    private Process startMember() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String logging = "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", "");
        Process child = new ProcessBuilder(java, "-Xmx64m", "-XX:MaxDirectMemorySize=64m", logging, "-cp", classpath,
                SmallHeapFleetMember.class.getName(), redis.uri(), prefix, MODEL).redirectErrorStream(true).start();
        child.getOutputStream().close();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(line.length() > 300 ? line.substring(0, 300) + "…" : line);
                }
            } catch (IOException ended) {
                output.add("(output ended: " + ended + ")");
            }
        }, "member-output");
        reader.setDaemon(true);
        reader.start();
        return child;
    }

    @Test
    void aThirtyMegabyteMessageLeavesASmallHeapInstanceSharingTrips() throws Exception {
        member = startMember();
        Eventually.await("the member joins the fleet", Duration.ofSeconds(60), () -> output.contains("ready"));
        store = RedisStateStore.create(redis.uri(), prefix);
        CircuitBreaker here = CircuitBreakerRegistry.builder().stateStore(store).build().breaker(MODEL);
        Eventually.await("this instance connects", Duration.ofSeconds(10), store::isConnected);

        try (RawRedis raw = new RawRedis(redis.uri())) {
            // Redis's default closes a subscriber whose output passes 32 MB; a Redis set up otherwise delivers it
            raw.commands().configSet("client-output-buffer-limit", "pubsub 0 0 0");
            raw.publish(prefix + "breakers", "x".repeat(30 << 20));
        }
        for (int i = 0; i < 5; i++) {
            here.onOutcome(here.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
        }

        assertThat(member.waitFor(60, TimeUnit.SECONDS)).as("the member ends").isTrue();
        assertThat(output).as("the member's output").contains("open").noneMatch(line -> line.contains("OutOfMemoryError"));
    }
}
