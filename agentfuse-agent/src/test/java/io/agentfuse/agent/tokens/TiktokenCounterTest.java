package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TiktokenCounterTest {

    @Test
    void countsEnglishTheSameInBothEncodings() {
        assertThat(TiktokenCounter.o200k().countText("hello world")).isEqualTo(2);
        assertThat(TiktokenCounter.cl100k().countText("hello world")).isEqualTo(2);
        assertThat(TiktokenCounter.cl100k().countText("The quick brown fox jumps over the lazy dog.")).isEqualTo(10);
    }

    @Test
    void countsChineseInFewerTokensWithTheNewerEncoding() {
        assertThat(TiktokenCounter.o200k().countText("你好，世界")).isEqualTo(3);
        assertThat(TiktokenCounter.cl100k().countText("你好，世界")).isEqualTo(6);
    }

    @Test
    void countsSpecialTokenMarkersAsOrdinaryText() {
        assertThat(TiktokenCounter.cl100k().countText("<|endoftext|>")).isEqualTo(7);
    }

    @Test
    void countsEmptyTextAsNothing() {
        assertThat(TiktokenCounter.o200k().countText("")).isZero();
    }

    @Test
    void namesItsEncoding() {
        assertThat(TiktokenCounter.o200k().encodingName()).isEqualTo("o200k_base");
        assertThat(TiktokenCounter.cl100k().encodingName()).isEqualTo("cl100k_base");
    }
}
