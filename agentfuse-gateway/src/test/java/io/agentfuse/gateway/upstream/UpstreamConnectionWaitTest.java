package io.agentfuse.gateway.upstream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.agentfuse.gateway.upstream.UpstreamHarness.body;
import static org.assertj.core.api.Assertions.assertThat;

/** A call that ends while it waits for a connection to its provider is never sent, and ends quietly. */
class UpstreamConnectionWaitTest {

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void aCallCancelledWhileWaitingForAConnectionIsNeverSent() throws Exception {
        assertNotSentWhenItEndsWhileWaiting(second -> second.cancel(true), CancellationException.class);
    }

    @Test
    void aCallTimingOutWhileWaitingForAConnectionIsNeverSent() throws Exception {
        assertNotSentWhenItEndsWhileWaiting(second -> { }, CallTimeoutException.class);
    }

    /**
     * Regression: the request a call leased after it had ended was reset with no handler for its
     * failure, and Vert.x logged "ERROR HttpClientRequestImpl: Stream reset: 0" for each caller that
     * left while its call waited for a connection: a normal event, logged as an error.
     */
    @Test
    void aCallThatEndsWhileWaitingForAConnectionLogsNoError() throws Exception {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        lines.start();
        root.addAppender(lines);
        try {
            assertNotSentWhenItEndsWhileWaiting(second -> second.cancel(true), CancellationException.class);
        } finally {
            root.detachAppender(lines);
        }

        synchronized (lines.list) {
            assertThat(lines.list).filteredOn(line -> line.getLevel() == Level.ERROR)
                    .extracting(ILoggingEvent::getFormattedMessage).isEmpty();
        }
    }

    /**
     * With one connection per host, a first call holds it while a second one waits for it and ends
     * (as {@code end} makes it, or by its own 100 ms timeout): the provider never sees the second,
     * and a third call after the first is answered.
     */
    private void assertNotSentWhenItEndsWhileWaiting(Consumer<CompletableFuture<UpstreamResponse>> end,
                                                     Class<? extends Throwable> failure) throws Exception {
        UpstreamClient client = new UpstreamClient(upstream.vertx, new UpstreamClientOptions(Duration.ofSeconds(10), 1));
        upstream.mock.script(MockStep.builder().delayMs(1_000).build());
        List<CompletableFuture<UpstreamResponse>> calls = new ArrayList<>();
        Context one = upstream.vertx.getOrCreateContext(); // one event loop: one pool, one connection
        Await.result(Future.<Void>future(started -> one.runOnContext(v -> {
            calls.add(client.sendCancellable(UpstreamRequest.of(upstream.openAi, body("first")), Duration.ofSeconds(10), r -> r));
            calls.add(client.sendCancellable(UpstreamRequest.of(upstream.openAi, body("second")), Duration.ofMillis(100), r -> r));
            end.accept(calls.get(1));
            started.complete();
        })));

        assertThat(calls.get(1).handle((answer, error) -> error).get(20, TimeUnit.SECONDS)).isInstanceOf(failure);
        assertThat(Await.result(Future.fromCompletionStage(calls.get(0))).status()).isEqualTo(200);
        Await.result(Future.<UpstreamResponse>future(third -> one.runOnContext(v ->
                client.send(UpstreamRequest.of(upstream.openAi, body("third")), Duration.ofSeconds(10)).onComplete(third))));

        assertThat(upstream.mock.requests()).extracting(request -> request.jsonBody().orElseThrow().getString("model"))
                .containsExactly("first", "third");
    }
}
