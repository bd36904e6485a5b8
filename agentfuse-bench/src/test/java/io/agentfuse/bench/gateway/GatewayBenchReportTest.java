package io.agentfuse.bench.gateway;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GatewayBenchReportTest {

    private static final BenchRun DIRECT_1 = run("direct", 1, 300_000, 40, 300_000);
    private static final BenchRun DIRECT_32 = run("direct", 32, 900_000, 400, 900_000);
    private static final BenchRun AGENTFUSE_1 = run("agentfuse", 1, 150_000, 100, 150_000);
    private static final BenchRun AGENTFUSE_32 = run("agentfuse", 32, 450_000, 1_000, 450_000);
    private static final BenchRun PORTKEY_1 = run("portkey", 1, 7_000, 1_440, 7_000);
    private static final BenchRun PORTKEY_32 = run("portkey", 32, 10_000, 42_000, 10_000);

    @Test
    void addedLatencyIsTheGatewayP50MinusTheDirectP50AtTheSameConnections() {
        GatewayBenchReport report = report(DIRECT_1, DIRECT_32, AGENTFUSE_1, AGENTFUSE_32);

        assertThat(report.addedP50Micros(AGENTFUSE_1)).contains(60L);
        assertThat(report.addedP50Micros(AGENTFUSE_32)).contains(600L);
    }

    @Test
    void theDirectRunAddsNothing() {
        assertThat(report(DIRECT_1).addedP50Micros(DIRECT_1)).isEmpty();
    }

    @Test
    void noAddedLatencyWithoutAValidDirectRun() {
        BenchRun brokenDirect = new BenchRun("direct", 1, 1_000, 15_000_000, 40, 90, 5, 0, 100, 100_000, 1_000, 0);

        assertThat(report(brokenDirect, AGENTFUSE_1).addedP50Micros(AGENTFUSE_1)).isEmpty();
    }

    @Test
    void printsOneRowPerRunWithItsFigures() {
        String printed = print(report(DIRECT_1, AGENTFUSE_1));

        assertThat(printed).contains("| agentfuse | 1 | 10,000 | 0.100 ms | 0.200 ms | 0.060 ms | 40.0 µs | 150.0 MiB | 1.0 % | yes |");
    }

    @Test
    void passesTheTargetsWhenAgentfuseBeatsThem() {
        String printed = print(report(DIRECT_1, DIRECT_32, AGENTFUSE_1, AGENTFUSE_32, PORTKEY_1, PORTKEY_32));

        assertThat(printed)
                .contains("agentfuse 30,000, Portkey 667 = 45.00x: PASS")
                .contains("agentfuse 0.060 ms, Portkey 1.400 ms: PASS (aim met)")
                .contains("150.0 MiB: PASS");
    }

    @Test
    void failsTheThroughputTargetBelowTenTimesPortkey() {
        BenchRun slow = run("agentfuse", 32, 90_000, 1_000, 90_000);

        assertThat(print(report(slow, PORTKEY_32))).contains("= 9.00x: FAIL");
    }

    @Test
    void aTargetWithoutValidRunsIsNotPassed() {
        BenchRun failing = new BenchRun("agentfuse", 32, 450_000, 15_000_000, 900, 4_000, 12, 0, 100, 100_000, 450_000, 0);

        String printed = print(report(failing, PORTKEY_32));

        assertThat(printed).contains("n/a (no valid run of both)")
                .contains("INVALID: agentfuse at 32 connections: 12 answers with status >= 400");
    }

    @Test
    void theSmallWorkloadIsAlsoJudgedAgainstTheVertxFloorNotNginx() {
        BenchRun floor = run("vertx-floor", 32, 525_000, 500, 525_000);

        assertThat(print(report(AGENTFUSE_32, floor, run("nginx", 32, 300_000, 500, 300_000))))
                .contains("requests/s at 32 connections >= 0.9x the Vert.x floor's: agentfuse 30,000, the Vert.x floor 35,000"
                        + " = 0.86x: FAIL")
                .doesNotContain("nginx's");
        assertThat(print(report(AGENTFUSE_32, run("vertx-floor", 32, 495_000, 500, 495_000))))
                .contains("= 0.91x: PASS");
    }

    @Test
    void aRatioJustUnderItsBarIsNotShownRoundedUpToIt() {
        assertThat(DoneWhenChecks.ratioAgainst(0.8999, 0.9)).isEqualTo("0.8999");
        assertThat(DoneWhenChecks.ratioAgainst(0.899996, 0.9)).isEqualTo("0.899996");
        assertThat(DoneWhenChecks.ratioAgainst(0.9004, 0.9)).isEqualTo("0.90");
        assertThat(DoneWhenChecks.ratioAgainst(0.857, 0.9)).isEqualTo("0.86");
    }

    @Test
    void theConversationIsJudgedAtEightConnectionsAgainstPortkeyAndByItsAddedLatency() {
        BenchRun agentfuse8 = run("agentfuse", 8, 60_000, 2_000, 60_000);
        BenchRun portkey8 = run("portkey", 8, 3_000, 40_000, 3_000);
        BenchRun slowAtOne = run("agentfuse", 1, 10_000, 1_100, 10_000);

        String passed = print(reportOf("conversation", DIRECT_1, AGENTFUSE_1, agentfuse8, portkey8));
        String failed = print(reportOf("conversation", DIRECT_1, slowAtOne, agentfuse8, portkey8));

        assertThat(passed).contains("requests/s at 8 connections >= 10x Portkey's: agentfuse 4,000, Portkey 200 = 20.00x: PASS")
                .contains("added p50 at 1 connection <= 1.000 ms: agentfuse 0.060 ms: PASS")
                .doesNotContain("nginx").doesNotContain("32 connections");
        assertThat(failed).contains("added p50 at 1 connection <= 1.000 ms: agentfuse 1.060 ms: FAIL");
    }

    @Test
    void theStreamIsJudgedByItsRateAtEightConnections() {
        String passed = print(reportOf("stream", run("agentfuse", 8, 150_000, 500, 150_000)));
        String failed = print(reportOf("stream", run("agentfuse", 8, 149_985, 500, 149_985)));
        String missing = print(reportOf("stream", run("nginx", 8, 150_000, 500, 150_000)));

        assertThat(passed).contains("streams/s at 8 connections >= 10,000: agentfuse 10,000: PASS");
        assertThat(failed).contains("agentfuse 9,999: FAIL");
        assertThat(missing).contains("streams/s at 8 connections >= 10,000: n/a (no valid run)");
    }

    @Test
    void peakRssAtTheLimitPasses() {
        BenchRun atLimit = new BenchRun("agentfuse", 8, 150_000, 15_000_000, 500, 1_000, 0, 0, 600, 262_144, 150_000, 0);
        BenchRun over = new BenchRun("agentfuse", 8, 150_000, 15_000_000, 500, 1_000, 0, 0, 600, 262_145, 150_000, 0);

        assertThat(print(reportOf("stream", atLimit))).contains("agentfuse peak RSS <= 256 MiB: 256.0 MiB: PASS");
        assertThat(print(reportOf("stream", over))).contains("agentfuse peak RSS <= 256 MiB: 256.0 MiB: FAIL");
    }

    @Test
    void anUnknownWorkloadIsRefusedByName() {
        assertThatThrownBy(() -> reportOf("streaming", AGENTFUSE_1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown workload 'streaming' (small, conversation, stream)");
    }

    @Test
    void anInvalidRunMakesTheReportInvalid() {
        BenchRun failing = new BenchRun("portkey", 1, 10, 15_000_000, 900, 4_000, 0, 1, 100, 100_000, 10, 0);

        assertThat(report(DIRECT_1, failing).allValid()).isFalse();
        assertThat(report(DIRECT_1, AGENTFUSE_1).allValid()).isTrue();
    }

    private static BenchRun run(String target, int connections, long requests, long p50Micros, long served) {
        // 15 s runs; 40 µs of CPU per request at 100 ticks a second; 150 MiB peak; 0.15 s (1 % of a CPU) stolen.
        return new BenchRun(target, connections, requests, 15_000_000, p50Micros, p50Micros * 2, 0, 0,
                requests * 40 / 10_000, 153_600, served, 15);
    }

    private static GatewayBenchReport report(BenchRun... runs) {
        return new GatewayBenchReport(List.of(runs), 100);
    }

    private static GatewayBenchReport reportOf(String workload, BenchRun... runs) {
        return new GatewayBenchReport(List.of(runs), 100, workload);
    }

    private static String print(GatewayBenchReport report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
