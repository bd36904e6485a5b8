package io.agentfuse.redis;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that turns the store's credentials down is reported as that, not as a Redis that cannot
 * be reached (regression: the log said "Unable to connect"), and breakers go on locally.
 */
class RedisAuthenticationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final RedisServerProcess redis = RedisServerProcess.startRequiringPassword("the-right-one");
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private RedisStateStore store;

    @BeforeEach
    void capture() {
        log.start();
        redisLogger.addAppender(log);
    }

    @AfterEach
    void stop() {
        redisLogger.detachAppender(log);
        if (store != null) {
            store.close();
        }
        redis.close();
    }

    private String warningFor(String uri) {
        store = RedisStateStore.create(uri);
        CircuitBreaker breaker = CircuitBreakerRegistry.builder().stateStore(store).build().breaker("model:local");
        Eventually.await("a warning", WAIT, () -> !log.list.isEmpty());
        breaker.forceOpen("works locally");
        assertThat(breaker.state().rejectsCalls()).isTrue();
        return log.list.get(0).getFormattedMessage();
    }

    @Test
    void aGatewayWithoutThePasswordLogsThatRedisRefusedItsAuthentication() {
        String warning = warningFor("redis://127.0.0.1:" + redis.port());

        assertThat(warning).contains("refused the store's authentication").contains("NOAUTH")
                .doesNotContain("Unable to connect");
    }

    @Test
    void aWrongPasswordIsReportedAsSuchAndNotQuoted() {
        String warning = warningFor("redis://:not-the-right-one@127.0.0.1:" + redis.port());

        assertThat(warning).contains("refused the store's authentication").contains("WRONGPASS")
                .doesNotContain("not-the-right-one").doesNotContain("Unable to connect");
    }
}
