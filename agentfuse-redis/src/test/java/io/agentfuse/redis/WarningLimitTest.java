package io.agentfuse.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WarningLimitTest {

    private final AtomicLong now = new AtomicLong();
    private final WarningLimit limit = new WarningLimit(Duration.ofMinutes(1), now::get);

    private void after(Duration elapsed) {
        now.addAndGet(elapsed.toNanos());
    }

    @Test
    void aTroubleThatGoesOnIsWarnedOfOnceHoweverLong() {
        assertThat(limit.due("garbage")).isTrue();
        for (int attempt = 0; attempt < 600; attempt++) {
            after(Duration.ofSeconds(1));
            assertThat(limit.due("garbage")).isFalse();
        }
    }

    @Test
    void aNewKindIsWarnedOfAtOnceAndTwoKindsInTurnDoNotTakeEachOthersPlace() {
        assertThat(limit.due("garbage")).isTrue();
        assertThat(limit.due("a bulk string of 99999999 bytes")).isTrue();
        after(Duration.ofSeconds(1));

        assertThat(limit.due("garbage")).isFalse();
        assertThat(limit.due("a bulk string of 99999999 bytes")).isFalse();
    }

    @Test
    void aTroubleBackAfterAQuietMinuteIsWarnedOfAgain() {
        limit.due("garbage");
        after(Duration.ofSeconds(59));
        assertThat(limit.due("garbage")).isFalse();

        after(Duration.ofMinutes(1));

        assertThat(limit.due("garbage")).isTrue();
    }

    @Test
    void itRemembersABoundedNumberOfKinds() {
        for (int kind = 0; kind <= WarningLimit.MAX_KINDS; kind++) {
            assertThat(limit.due("kind " + kind)).isTrue();
        }

        assertThat(limit.due("kind 0")).as("the least recently seen was forgotten").isTrue();
        assertThat(limit.due("kind " + WarningLimit.MAX_KINDS)).isFalse();
    }
}
