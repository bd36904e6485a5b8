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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that turns the store's credentials down is reported as that, not as a Redis that cannot
 * be reached (regression: the log said "Unable to connect"), and breakers go on locally. A first
 * attempt that failed otherwise (timed out on a cold start) does not hide it: each new kind of
 * failure is warned of once.
 */
class RedisAuthenticationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final RedisServerProcess redis = RedisServerProcess.startRequiringPassword("the-right-one");
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private RedisStateStore store;
    private RedisBudgetLedger ledger;

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
        if (ledger != null) {
            ledger.close();
        }
        redis.close();
    }

    private String warningFor(String uri) {
        store = RedisStateStore.create(uri);
        CircuitBreaker breaker = CircuitBreakerRegistry.builder().stateStore(store).build().breaker("model:local");
        // The first attempt of a cold client may time out before Redis answers it: the warning that
        // names the refusal comes with the next attempt then (one warning per kind of failure).
        Eventually.await("a warning of the refusal", WAIT, () -> refusalWarning().isPresent());
        breaker.forceOpen("works locally");
        assertThat(breaker.state().rejectsCalls()).isTrue();
        return refusalWarning().orElseThrow();
    }

    private Optional<String> refusalWarning() {
        return warning("refused the store's authentication");
    }

    private Optional<String> warning(String containing) {
        List<ILoggingEvent> events;
        synchronized (log) { // the appender adds under its own lock
            events = new ArrayList<>(log.list);
        }
        return events.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.contains(containing)).findFirst();
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

    /** Regression: the budget ledger warned once of any failure to connect, so a cold start's timeout hid a refused password. */
    @Test
    void theBudgetLedgerToldAWrongPasswordSaysSoAndDoesNotQuoteIt() {
        ledger = RedisBudgetLedger.builder("redis://:not-the-right-one@127.0.0.1:" + redis.port()).build();

        Eventually.await("a warning of the refusal", WAIT, () -> warning("refused the budget ledger's authentication").isPresent());

        assertThat(warning("refused the budget ledger's authentication").orElseThrow()).contains("WRONGPASS")
                .doesNotContain("not-the-right-one");
        assertThat(ledger.isShared()).isFalse();
    }
}
