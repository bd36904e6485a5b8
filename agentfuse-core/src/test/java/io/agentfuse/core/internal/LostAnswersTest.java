package io.agentfuse.core.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class LostAnswersTest {

    @Test
    void aLostAnswerThatHoldsAResourceIsClosedOnce() {
        AtomicInteger closed = new AtomicInteger();

        LostAnswers.close((AutoCloseable) closed::incrementAndGet);

        assertThat(closed).hasValue(1);
    }

    @Test
    void aLostAnswerThatFailsToCloseOrHoldsNothingIsDroppedQuietly() {
        assertThatCode(() -> LostAnswers.close((AutoCloseable) () -> {
            throw new IllegalStateException("already closed");
        })).doesNotThrowAnyException();
        assertThatCode(() -> LostAnswers.close("a plain answer")).doesNotThrowAnyException();
        assertThatCode(() -> LostAnswers.close(null)).doesNotThrowAnyException();
    }
}
