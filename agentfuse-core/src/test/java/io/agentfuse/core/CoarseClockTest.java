package io.agentfuse.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The coarse clock's ticker keeps its readings fresh while it is read, parks once nothing reads
 * it, and a reading of a parked clock is fresh and wakes it. The ticks are driven by the test,
 * over a fake system clock; no thread ticks on its own.
 */
class CoarseClockTest {

    private final AtomicLong systemNanos = new AtomicLong(1_000);
    private final AtomicLong systemMillis = new AtomicLong(1_700_000_000_000L);
    private final AtomicInteger wakes = new AtomicInteger();
    private final CoarseClock clock = clock();

    private CoarseClock clock() {
        CoarseClock clock = new CoarseClock(systemNanos::get, systemMillis::get);
        clock.wakeTicker(wakes::incrementAndGet);
        return clock;
    }

    @Test
    void durationsOfAHundredTicksOrMoreAreTimedCoarsely() {
        long tick = Clock.coarseSystem().tickNanos();

        assertThat(Clock.system().fineEnoughFor(100 * tick)).isSameAs(Clock.coarseSystem());
        assertThat(Clock.system().fineEnoughFor(100 * tick - 1)).isSameAs(Clock.system());
        ManualClock manual = new ManualClock();
        assertThat(manual.fineEnoughFor(1)).as("an exact clock is its own coarse view").isSameAs(manual);
    }

    @Test
    void aReadingLagsTheSystemClockUntilTheNextTick() {
        long before = clock.nanoTime();
        advance(Duration.ofMillis(1));

        assertThat(clock.nanoTime()).isEqualTo(before);
        clock.tick();
        assertThat(clock.nanoTime()).isEqualTo(systemNanos.get());
        assertThat(clock.epochMillis()).isEqualTo(systemMillis.get());
    }

    @Test
    void sleepsLongerWhileOtherThreadsRefreshItEveryTickAndTakesOverWhenTheyStop() {
        long helpedSleep = CoarseClock.HELPED_TICKS * CoarseClock.TICK_NANOS;
        assertThat(clock.nextSleepNanos()).isEqualTo(CoarseClock.TICK_NANOS);

        // An event loop awake anyway refreshes it: the reading is fresh, the ticker may sleep longer
        advance(Duration.ofMillis(1));
        clock.refreshFromAwakeThread();
        assertThat(clock.nanoTime()).isEqualTo(systemNanos.get());
        assertThat(clock.nextSleepNanos()).isEqualTo(helpedSleep);

        // It slept five ticks: five refreshes keep it asleep that long, four are too sparse
        refreshes(CoarseClock.HELPED_TICKS);
        assertThat(clock.nextSleepNanos()).isEqualTo(helpedSleep);
        refreshes(CoarseClock.HELPED_TICKS - 1);
        assertThat(clock.nextSleepNanos()).isEqualTo(CoarseClock.TICK_NANOS);

        // None since it last looked: it ticks every tick
        assertThat(clock.nextSleepNanos()).isEqualTo(CoarseClock.TICK_NANOS);
        assertThat(helpedSleep).isLessThanOrEqualTo(clock.tickNanos() / 2);
    }

    private void refreshes(int count) {
        for (int i = 0; i < count; i++) {
            clock.refreshFromAwakeThread();
        }
    }

    @Test
    void keepsTickingWhileItIsRead() {
        for (int tick = 0; tick < 10 * CoarseClock.IDLE_TICKS; tick++) {
            if (tick % (CoarseClock.IDLE_TICKS / 2) == 0) {
                clock.nanoTime();
            }
            assertThat(clock.tick()).as("tick %d", tick).isFalse();
        }
        assertThat(clock.isAsleep()).isFalse();
    }

    @Test
    void parksOnceNothingReadItForIdleTicks() {
        clock.nanoTime();

        int ticks = ticksUntilItParks();

        assertThat(ticks).isGreaterThan(CoarseClock.IDLE_TICKS).isLessThanOrEqualTo(2 * CoarseClock.IDLE_TICKS);
        assertThat(clock.isAsleep()).isTrue();
        assertThat(wakes).hasValue(0);
    }

    @Test
    void aReadingOfAParkedClockIsFreshAndWakesTheTicker() {
        ticksUntilItParks();
        advance(Duration.ofMinutes(10));

        assertThat(clock.nanoTime()).as("not as old as the park").isEqualTo(systemNanos.get());
        assertThat(clock.epochMillis()).isEqualTo(systemMillis.get());
        assertThat(wakes).hasValue(1);

        advance(Duration.ofMillis(3));
        clock.wokenUp();
        assertThat(clock.isAsleep()).isFalse();
        assertThat(clock.nanoTime()).isEqualTo(systemNanos.get());
        assertThat(clock.tick()).isFalse();
    }

    @Test
    void onlyTheFirstReadingAfterAParkWakesTheTicker() {
        ticksUntilItParks();

        clock.nanoTime();
        clock.nanoTime();
        clock.epochMillis();

        assertThat(wakes).hasValue(1);
    }

    @Test
    void readingsNeverGoBackwards() {
        clock.tick();
        long seen = clock.nanoTime();

        systemNanos.addAndGet(-500);
        clock.tick();

        assertThat(clock.nanoTime()).isEqualTo(seen);
    }

    @Test
    void everyReaderOfAParkedClockReadsAFreshValue() throws Exception {
        ticksUntilItParks();
        advance(Duration.ofMinutes(10));
        long fresh = systemNanos.get();

        List<Long> readings = Race.run(16, clock::nanoTime);

        assertThat(readings).allSatisfy(reading -> assertThat(reading).isEqualTo(fresh));
        assertThat(wakes.get()).isBetween(1, 16);
    }

    private int ticksUntilItParks() {
        for (int tick = 1; tick <= 3 * CoarseClock.IDLE_TICKS; tick++) {
            if (clock.tick()) {
                return tick;
            }
        }
        throw new AssertionError("the ticker never parked");
    }

    private void advance(Duration by) {
        systemNanos.addAndGet(by.toNanos());
        systemMillis.addAndGet(by.toMillis());
    }
}
