package io.agentfuse.core.timeout;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.SpinWait;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@link Timeout} on a blocking call: it interrupts a call that outlives it and reports a timeout, and
 * leaves the caller's own interrupt flag as it found it.
 */
class TimeoutOnBlockingCallsTest {

    private final ManualClock clock = new ManualClock();
    private final Timeout timeout = Timeout.of(Duration.ofSeconds(30), clock);

    @AfterEach
    void leaveTheTestThreadUninterrupted() {
        Thread.interrupted();
    }

    @Test
    void aCallThatOutlivesTheTimeoutIsInterruptedAndReportedAsATimeout() {
        AtomicBoolean interruptedInside = new AtomicBoolean();

        Throwable thrown = catchThrowable(() -> timeout.call(() -> {
            clock.advance(Duration.ofSeconds(31));
            interruptedInside.set(Thread.currentThread().isInterrupted());
            return "too late";
        }));

        assertThat(thrown).isInstanceOf(CallTimeoutException.class);
        assertThat(interruptedInside).as("the call was interrupted").isTrue();
        assertThat(Thread.currentThread().isInterrupted()).as("the caller's flag is clear").isFalse();
    }

    @Test
    void aBlockedCallIsWokenByTheTimerAndReportedAsATimeout() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            AtomicBoolean flagAfterwards = new AtomicBoolean(true);
            Future<Throwable> outcome = caller.submit(() -> {
                Throwable thrown = catchThrowable(() -> timeout.call(() -> {
                    blocked.countDown();
                    try {
                        never.await();
                        return "impossible";
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted while waiting for the tool", e);
                    }
                }));
                flagAfterwards.set(Thread.currentThread().isInterrupted());
                return thrown;
            });
            assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
            SpinWait.until(() -> clock.pendingTasks() == 1, "the timer is scheduled");

            clock.advance(Duration.ofSeconds(30));

            assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(CallTimeoutException.class);
            assertThat(flagAfterwards).isFalse();
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void aCallThatFinishesInTimeReturnsItsValueAndStopsTheTimer() {
        String answer = timeout.call(() -> {
            clock.advance(Duration.ofSeconds(29));
            return "on time";
        });

        assertThat(answer).isEqualTo("on time");
        assertThat(clock.pendingTasks()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aCallThatFailsInTimeKeepsItsError() {
        HttpStatusException error = new HttpStatusException(500);

        assertThatThrownBy(() -> timeout.call(() -> {
            throw error;
        })).isSameAs(error);
    }

    @Test
    void aCallerThatWasAlreadyInterruptedStaysInterruptedAfterACallInTime() {
        Thread.currentThread().interrupt();

        timeout.call(() -> "on time");

        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void aCallerThatWasAlreadyInterruptedStaysInterruptedAfterATimeout() {
        Thread.currentThread().interrupt();

        Throwable thrown = catchThrowable(() -> timeout.call(() -> {
            clock.advance(Duration.ofSeconds(31));
            return "too late";
        }));

        assertThat(thrown).isInstanceOf(CallTimeoutException.class);
        assertThat(Thread.interrupted()).as("the caller's own interrupt is not swallowed").isTrue();
    }

    @Test
    void aTimeoutMustBePositive() {
        assertThatThrownBy(() -> Timeout.of(Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must be positive, but was PT0S");
    }
}
