package io.agentfuse.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.redis.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: a server at Redis's address that is no Redis — it answers every connection with
 * bytes that are not RESP — made the store and the budget ledger log a warning on every reconnect
 * (54 in 30 s). Each now says it once, and stays quiet while it goes on.
 */
class NotRedisTest {

    private static final byte[] NOT_RESP = "$not-a-length\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private final AtomicInteger answered = new AtomicInteger();
    private ServerSocket server;
    private RedisStateStore store;
    private RedisBudgetLedger ledger;

    @BeforeEach
    void start() throws IOException {
        log.start();
        redisLogger.addAppender(log);
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::answerEveryConnectionWithGarbage, "not-redis");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void answerEveryConnectionWithGarbage() {
        while (!server.isClosed()) {
            try (Socket connection = server.accept()) {
                connection.getInputStream().read(new byte[4096]); // the client's hello
                connection.getOutputStream().write(NOT_RESP);
                connection.getOutputStream().flush();
                connection.getInputStream().read(); // until the client hangs up
                answered.incrementAndGet();
            } catch (IOException closedOrReset) {
                answered.incrementAndGet();
            }
        }
    }

    @AfterEach
    void stop() throws IOException {
        redisLogger.detachAppender(log);
        if (store != null) {
            store.close();
        }
        if (ledger != null) {
            ledger.close();
        }
        server.close();
    }

    @Test
    void theStoreAndTheLedgerEachWarnOnceWhileEveryReconnectMeetsGarbage() {
        String uri = "redis://127.0.0.1:" + server.getLocalPort();
        store = RedisStateStore.create(uri);
        CircuitBreakerRegistry.builder().stateStore(store).build().breaker("model:local");
        ledger = RedisBudgetLedger.builder(uri).build();

        Eventually.await("the clients connect again and again", Duration.ofSeconds(60), () -> answered.get() >= 9);

        assertThat(warnings("closed the connection to Redis")).as("one per client").hasSizeBetween(1, 2)
                .allSatisfy(line -> assertThat(line).contains("a bulk string of unknown length"));
        assertThat(store.isConnected()).isFalse();
        assertThat(ledger.isShared()).isFalse();
    }

    private List<String> warnings(String containing) {
        synchronized (log) { // the appender adds under its own lock
            return log.list.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(containing)).toList();
        }
    }
}
