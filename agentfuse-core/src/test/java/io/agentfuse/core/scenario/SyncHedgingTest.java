package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RecordingListener;
import io.agentfuse.core.SpinWait;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.hedge.HedgePolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hedging a synchronous call: its attempts run on the policy's executor while the caller waits,
 * through the same decisions as the asynchronous path. Each attempt blocks until the test answers
 * it; the test moves a {@link ManualClock} once the call is waiting for its hedge delay. No sleeps:
 * the test only waits for events (an attempt started, a timer armed).
 */
class SyncHedgingTest {

    private static final long LIMIT_SECONDS = 30;

    private final ManualClock clock = new ManualClock();
    private final ExecutorService attemptThreads = Executors.newCachedThreadPool();
    private final ExecutorService caller = Executors.newSingleThreadExecutor();
    private final HedgePolicy hedge = HedgePolicy.builder().after(Duration.ofSeconds(2)).executor(attemptThreads).build();
    private final BlockingQueue<String> started = new LinkedBlockingQueue<>();
    private final Map<String, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
    private final List<String> interrupted = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopThreads() {
        attemptThreads.shutdownNow();
        caller.shutdownNow();
    }

    @Test
    void aSlowSynchronousCallIsHedgedAndTheLosingAttemptsThreadIsInterrupted() throws Exception {
        RecordingListener recorded = new RecordingListener();
        CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.defaults(), clock);
        breaker.addListener(recorded);
        Bulkhead bulkhead = Bulkhead.of("model:sonnet", 4);
        Guard guard = Guard.builder("model:sonnet").circuitBreaker(breaker).bulkhead(bulkhead).hedge(hedge)
                .manualClock(clock).build();
        Supplier<String> call = blocking(List.of("first", "hedge"));

        Future<String> result = caller.submit(() -> guard.execute(call));
        awaitStarted("first");
        SpinWait.until(() -> clock.pendingTasks() == 1, "the hedge timer is armed");
        clock.advance(Duration.ofSeconds(2));
        awaitStarted("hedge");
        answers.get("hedge").complete("hedge's answer");

        assertThat(result.get(LIMIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("hedge's answer");
        SpinWait.until(() -> interrupted.contains("first"), "the losing attempt's thread is interrupted");
        assertThat(recorded.recorded()).containsExactly(Outcome.SUCCESS);
        SpinWait.until(() -> bulkhead.inFlight() == 0, "both places are given back");
    }

    @Test
    void aHedgedChainOfSynchronousStepsStartsTheNextStepBesideTheSlowOne() throws Exception {
        Guard sonnet = Guard.builder("model:sonnet").manualClock(clock).build();
        Guard haiku = Guard.builder("model:haiku").manualClock(clock).build();
        Supplier<String> sonnetCall = blocking(List.of("sonnet"));
        Supplier<String> haikuCall = blocking(List.of("haiku"));
        FallbackChain<String, String> chain = FallbackChain.<String, String>builder()
                .step("sonnet", sonnet, prompt -> sonnetCall.get())
                .step("haiku", haiku, prompt -> haikuCall.get())
                .hedge(hedge)
                .build();

        Future<FallbackResult<String>> result = caller.submit(() -> chain.execute("hi"));
        awaitStarted("sonnet");
        SpinWait.until(() -> clock.pendingTasks() == 1, "the hedge timer is armed");
        clock.advance(Duration.ofSeconds(2));
        awaitStarted("haiku");
        answers.get("haiku").complete("haiku's answer");

        FallbackResult<String> answer = result.get(LIMIT_SECONDS, TimeUnit.SECONDS);
        assertThat(answer.value()).isEqualTo("haiku's answer");
        assertThat(answer.step()).isEqualTo("haiku");
        assertThat(answer.hedged()).isTrue();
        assertThat(answer.passed()).as("the slow step lost a race; it did not fail").isEmpty();
        SpinWait.until(() -> interrupted.contains("sonnet"), "the slow step's thread is interrupted");
    }

    /** A call whose attempts, named in order, each block until the test answers them. */
    private Supplier<String> blocking(List<String> names) {
        AtomicInteger count = new AtomicInteger();
        names.forEach(name -> answers.put(name, new CompletableFuture<>()));
        return () -> {
            String name = names.get(Math.min(count.getAndIncrement(), names.size() - 1));
            started.add(name);
            try {
                return answers.get(name).get();
            } catch (InterruptedException e) {
                interrupted.add(name);
                throw new IllegalStateException(name + " interrupted");
            } catch (ExecutionException e) {
                throw (RuntimeException) e.getCause();
            }
        };
    }

    private void awaitStarted(String name) throws InterruptedException {
        assertThat(started.poll(LIMIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(name);
    }
}
