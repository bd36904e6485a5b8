package io.agentfuse.gateway.upstream;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.timeout.CallTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EventTimerTest {

    private static final long SECOND = 1_000_000_000L;

    private final ManualTimers timers = new ManualTimers();
    private final List<Duration> expired = new ArrayList<>();

    private EventTimer timer(long firstEventSeconds, long idleSeconds) {
        StreamTimeouts timeouts = new StreamTimeouts(Duration.ofSeconds(firstEventSeconds), Duration.ofSeconds(idleSeconds));
        return new EventTimer(timers, timers::now, timeouts, Runnable::run, (CallTimeoutException e) -> expired.add(e.timeout()));
    }

    @Test
    void anAnswerThatNeverBeginsFailsAtTheFirstEventLimitWhatEverPreambleCame() {
        EventTimer timer = timer(10, 60);
        timer.start();
        timers.advanceTo(5 * SECOND);
        timer.event(false); // a message_start: the answer has not begun

        timers.advanceTo(10 * SECOND);

        assertThat(expired).containsExactly(Duration.ofSeconds(10));
    }

    @Test
    void theFirstEventTimerGoesOnAsTheIdleTimerSetForWhatIsLeft() {
        EventTimer timer = timer(10, 60);
        timer.start();
        for (long second = 1; second <= 5; second++) {
            timers.advanceTo(second * SECOND);
            timer.event(true);
        }
        assertThat(timers.set).as("one timer for the first event and the events after it").isEqualTo(1);

        timers.advanceTo(64 * SECOND);
        assertThat(expired).as("fired at 10 s, set again for the 55 s left after the last event").isEmpty();
        assertThat(timers.set).isEqualTo(2);

        timers.advanceTo(65 * SECOND);
        assertThat(expired).containsExactly(Duration.ofSeconds(60));
    }

    @Test
    void aFirstEventLimitLongerThanTheIdleLimitGivesWayToAnIdleTimer() {
        EventTimer timer = timer(120, 30);
        timer.start();
        timers.advanceTo(SECOND);
        timer.event(true);

        timers.advanceTo(31 * SECOND);

        assertThat(expired).as("the idle limit after the last event, not the first-event limit").containsExactly(Duration.ofSeconds(30));
        timers.advanceTo(200 * SECOND);
        assertThat(expired).as("the first-event timer was cancelled").hasSize(1);
    }

    @Test
    void aStoppedTimerNeverFiresAndResumingRunsTheIdleLimitFromThen() {
        EventTimer timer = timer(10, 60);
        timer.start();
        timers.advanceTo(SECOND);
        timer.event(true);
        timer.stop(); // the caller stopped reading

        timers.advanceTo(100 * SECOND);
        assertThat(expired).isEmpty();

        timer.resume();
        timers.advanceTo(159 * SECOND);
        assertThat(expired).isEmpty();
        timers.advanceTo(160 * SECOND);
        assertThat(expired).containsExactly(Duration.ofSeconds(60));
    }

    /** Tasks run when the test moves the time past them, in the order they are due. */
    private static final class ManualTimers implements Scheduler {
        private final List<long[]> due = new ArrayList<>(); // {at, index}
        private final List<Runnable> tasks = new ArrayList<>();
        private long now;
        int set;

        long now() {
            return now;
        }

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            set++;
            long[] entry = {now + delayNanos, tasks.size()};
            tasks.add(task);
            due.add(entry);
            return () -> due.remove(entry);
        }

        void advanceTo(long time) {
            while (true) {
                long[] next = due.stream().filter(entry -> entry[0] <= time)
                        .min((a, b) -> Long.compare(a[0], b[0])).orElse(null);
                if (next == null) {
                    break;
                }
                due.remove(next);
                now = next[0];
                tasks.get((int) next[1]).run();
            }
            now = time;
        }
    }
}
