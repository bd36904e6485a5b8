package io.agentfuse.bench.gateway;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class BenchRunTest {

    @Test
    void readsEveryColumnOfARecordedLine() {
        BenchRun run = BenchRun.parse("agentfuse\t32\t300000\t15000000\t900\t4000\t0\t0\t1200\t153600\t300010\t45\n");

        assertThat(run).isEqualTo(new BenchRun("agentfuse", 32, 300_000, 15_000_000, 900, 4_000,
                0, 0, 1_200, 153_600, 300_010, 45));
    }

    @Test
    void refusesALineWithAMissingColumnAndShowsIt() {
        assertThatThrownBy(() -> BenchRun.parse("direct\t1\t2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("12 tab-separated columns")
                .hasMessageEndingWith("but was: direct\t1\t2");
    }

    @Test
    void computesThroughputFromRequestsAndDuration() {
        BenchRun run = run(300_000, 15_000_000, 0, 0, 300_000);

        assertThat(run.requestsPerSecond()).isEqualTo(20_000.0);
    }

    @Test
    void computesCpuMicrosecondsPerRequestFromClockTicks() {
        // 1 200 ticks at 100 a second = 12 s of CPU over 300 000 requests = 40 µs each.
        BenchRun run = run(300_000, 15_000_000, 0, 0, 300_000);

        assertThat(run.cpuMicrosPerRequest(100)).isEqualTo(40.0);
    }

    @Test
    void computesTheHostsStealAsAShareOfOneCpu() {
        // 45 ticks at 100 a second = 0.45 s taken away over a 15 s run = 3 % of one CPU.
        BenchRun run = BenchRun.parse("nginx\t32\t300000\t15000000\t900\t4000\t0\t0\t1200\t153600\t300010\t45");

        assertThat(run.stealShare(100)).isCloseTo(0.03, within(1e-12));
    }

    @Test
    void isValidWhenEveryRequestSucceededThroughTheUpstream() {
        assertThat(run(1_000, 1_000_000, 0, 0, 1_001).valid()).isTrue();
    }

    @Test
    void isInvalidWithErrorAnswers() {
        BenchRun run = run(1_000, 1_000_000, 3, 0, 1_000);

        assertThat(run.valid()).isFalse();
        assertThat(run.problems()).containsExactly("3 answers with status >= 400");
    }

    @Test
    void isInvalidWithSocketErrors() {
        assertThat(run(1_000, 1_000_000, 0, 2, 1_000).problems()).containsExactly("2 socket errors");
    }

    @Test
    void isInvalidWhenTheUpstreamServedFewerRequestsThanWrkCounted() {
        assertThat(run(1_000, 1_000_000, 0, 0, 10).problems())
                .containsExactly("upstream served 10 of 1000 requests");
    }

    private static BenchRun run(long requests, long durationMicros, long non2xx, long socketErrors,
                                long upstreamServed) {
        return new BenchRun("agentfuse", 32, requests, durationMicros, 900, 4_000, non2xx, socketErrors,
                1_200, 153_600, upstreamServed, 0);
    }
}
