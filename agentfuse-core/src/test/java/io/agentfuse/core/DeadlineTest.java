package io.agentfuse.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadlineTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void aDeadlineCountsDownOnItsClockAndPassesAtItsInstant() {
        Deadline deadline = Deadline.after(Duration.ofSeconds(30), clock);

        clock.advance(Duration.ofSeconds(20));
        assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(10));
        assertThat(deadline.hasPassed()).isFalse();

        clock.advance(Duration.ofSeconds(15));
        assertThat(deadline.remainingNanos()).as("never negative").isZero();
        assertThat(deadline.hasPassed()).isTrue();
    }

    @Test
    void noDeadlineNeverPassesAndHasAllTheTimeThereIs() {
        Deadline none = Deadline.none();

        assertThat(none.isNone()).isTrue();
        assertThat(none.hasPassed()).isFalse();
        assertThat(none.remainingNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(none.nanoTimeOn(clock)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aCallerMayShortenADeadlineButNeverLengthenIt() {
        Deadline model = Deadline.after(Duration.ofSeconds(30), clock);
        Deadline shorter = Deadline.after(Duration.ofSeconds(10), clock);
        Deadline longer = Deadline.after(Duration.ofSeconds(60), clock);

        assertThat(model.sooner(shorter)).isSameAs(shorter);
        assertThat(model.sooner(longer)).isSameAs(model);
        assertThat(model.sooner(Deadline.none())).isSameAs(model);
        assertThat(Deadline.none().sooner(shorter)).isSameAs(shorter);
    }

    @Test
    void onAnotherClockADeadlineIsPlacedByTheTimeItHasLeft() {
        ManualClock other = new ManualClock();
        other.advance(Duration.ofHours(1));
        Deadline deadline = Deadline.after(Duration.ofSeconds(30), clock);
        clock.advance(Duration.ofSeconds(5));

        assertThat(deadline.nanoTimeOn(clock)).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(deadline.nanoTimeOn(other)).isEqualTo(Duration.ofHours(1).plusSeconds(25).toNanos());
    }

    @Test
    void rejectsATimeLeftThatIsNotPositiveNamingIt() {
        assertThatThrownBy(() -> Deadline.after(Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("deadline must be positive");
    }
}
