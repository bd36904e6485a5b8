package io.agentfuse.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HeapAdviceTest {

    private static final long SIX_GIB = 6L << 30;

    @Test
    void aJvmWithoutAHeapBoundIsToldTheFlagsAndItsOwnLimit() {
        assertThat(HeapAdvice.of(List.of("-Dfile.encoding=UTF-8", "-XX:+UseG1GC"), SIX_GIB))
                .hasValueSatisfying(advice -> assertThat(advice)
                        .contains("up to 6144 MiB").contains("java -Xms128m -Xmx128m -XX:+UseSerialGC -jar agentfuse.jar serve"));
    }

    @Test
    void anyOptionThatBoundsTheHeapSilencesIt() {
        for (String bound : List.of("-Xmx128m", "-XX:MaxHeapSize=268435456", "-XX:MaxRAM=1g", "-XX:MaxRAMPercentage=25",
                "-XX:MaxRAMFraction=4")) {
            assertThat(HeapAdvice.of(List.of("-Xms64m", bound), SIX_GIB)).as(bound).isEmpty();
        }
    }

    @Test
    void anInitialHeapAloneDoesNotBoundIt() {
        assertThat(HeapAdvice.of(List.of("-Xms128m", "-XX:+UseSerialGC"), SIX_GIB)).isPresent();
    }
}
