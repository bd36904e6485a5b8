package io.agentfuse.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RawRedis;
import io.agentfuse.redis.testing.RedisServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A breaker's record in Redis expires once it no longer changes what any instance does, so
 * breakers renamed, dropped or made for a model once leave no key for good (regression: every
 * record was kept forever), while a tripped, forced-open or disabled breaker is never closed
 * fleet-wide by Redis forgetting it. Expiry is Redis's own countdown ({@code PTTL}); the breakers'
 * open times run on a manual clock, so a trip's record carries exactly its open time.
 */
class RecordRetentionTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "model:renamed-one-day";
    private static final Duration OPEN = Duration.ofMinutes(5);
    private static final Duration KEEP = RecordRetention.DEFAULT_KEEP;

    private static RedisServerProcess redis;

    private final String prefix = "retention-" + UUID.randomUUID() + ":";
    private final String record = prefix + "breaker:" + MODEL;
    private final ManualClock clock = new ManualClock();
    private final List<RedisStateStore> stores = new ArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private RawRedis raw;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void connect() {
        raw = new RawRedis(redis.uri());
        log.start();
        redisLogger.addAppender(log);
    }

    @AfterEach
    void close() {
        redisLogger.detachAppender(log);
        stores.forEach(RedisStateStore::close);
        raw.close();
    }

    /** An instance whose store keeps a record {@code keep} after it stops mattering. */
    private CircuitBreaker instance(Duration keep) {
        RedisStateStore store = RedisStateStore.builder(redis.uri()).keyPrefix(prefix).recordRetention(keep).build();
        stores.add(store);
        CircuitBreaker breaker = CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(3)).resetTimeout(OPEN).build())
                .stateStore(store)
                .build()
                .breaker(MODEL);
        Eventually.await("the store connects to Redis", WAIT, store::isConnected);
        return breaker;
    }

    private static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
        }
    }

    /** Waits until the record in Redis says {@code state}: the publish that wrote it has run. */
    private void recordSays(CircuitState state) {
        Eventually.await("the record says " + state, WAIT, () -> {
            String value = raw.get(record);
            return value != null && value.contains("&state=" + state + "&");
        });
    }

    @Test
    void aCloseExpiresAfterTheRetentionAndAnOperatorsForcedOpenOverItDoesNot() {
        CircuitBreaker breaker = instance(KEEP);

        breaker.close("operator: all clear");
        recordSays(CircuitState.CLOSED);
        long closedTtl = raw.pttl(record);
        breaker.forceOpen("operator: provider incident");
        recordSays(CircuitState.FORCED_OPEN);
        long forcedTtl = raw.pttl(record);
        breaker.close("operator: incident over");
        recordSays(CircuitState.CLOSED);
        long closedAgainTtl = raw.pttl(record);
        breaker.disable("operator: breaker off");
        recordSays(CircuitState.DISABLED);

        assertThat(closedTtl).as("a close expires, within the retention").isPositive().isLessThanOrEqualTo(KEEP.toMillis());
        assertThat(forcedTtl).as("a forced open never expires: it lost the close's expiry").isEqualTo(-1);
        assertThat(closedAgainTtl).as("each close sets it afresh").isPositive().isLessThanOrEqualTo(KEEP.toMillis());
        assertThat(raw.pttl(record)).as("a disabled breaker never expires either").isEqualTo(-1);
    }

    @Test
    void aTripIsKeptForItsOpenTimeAndTheRetentionAfterIt() {
        CircuitBreaker breaker = instance(KEEP);
        breaker.close("operator: all clear");
        recordSays(CircuitState.CLOSED);

        trip(breaker);
        recordSays(CircuitState.OPEN);

        assertThat(raw.pttl(record)).as("longer than the open time and the retention after it (Redis counts down meanwhile)")
                .isGreaterThan(KEEP.toMillis()).isLessThanOrEqualTo(OPEN.plus(KEEP).toMillis());
    }

    @Test
    void anExpiredCloseReadsAsAFreshClosedBreakerAndTheNextTripReachesEveryInstance() {
        CircuitBreaker tripper = instance(Duration.ofMillis(50));
        CircuitBreaker other = instance(KEEP);
        trip(tripper);
        Eventually.await("the other instance opens", WAIT, () -> other.state() == CircuitState.OPEN);
        tripper.close("operator: all clear");
        Eventually.await("the other instance closes", WAIT, () -> other.state() == CircuitState.CLOSED);

        Eventually.await("Redis forgets the close", WAIT, () -> raw.pttl(record) == -2);
        CircuitBreaker newcomer = instance(KEEP);
        assertThat(newcomer.state()).as("a breaker that never tripped").isEqualTo(CircuitState.CLOSED);
        trip(tripper);

        Eventually.await("the trip after the expiry reaches both, its version above the forgotten close's", WAIT,
                () -> other.state() == CircuitState.OPEN && newcomer.state() == CircuitState.OPEN);
        assertThat(log.list).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
    }
}
