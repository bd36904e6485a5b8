package io.agentfuse.bench.hedge;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pieces of the hedging benchmark that decide what it reports (the benchmark itself is not run here). */
class HedgeBenchPartsTest {

    @Test
    void givenAStallEveryTenth_thenExactlyOneRequestInTenStalls() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            StallingUpstream upstream = StallingUpstream.start(vertx, 10, 1000, 0).toCompletionStage()
                    .toCompletableFuture().get();
            long stalled = LongStream.rangeClosed(1, 1000).filter(upstream::stalls).count();
            assertThat(stalled).isEqualTo(100);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    @Test
    void givenSortedSamples_thenTheQuantileIsTheNearestRank() {
        long[] hundred = LongStream.rangeClosed(1, 100).toArray();

        assertThat(HedgeBench.quantile(hundred, 0.50)).isEqualTo(50);
        assertThat(HedgeBench.quantile(hundred, 0.99)).isEqualTo(99);
        assertThat(HedgeBench.quantile(new long[] {7}, 0.99)).isEqualTo(7);
        assertThatThrownBy(() -> HedgeBench.quantile(new long[0], 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenEitherRound_thenTheGatewayConfigurationIsValidAndOnlyTheHedgedRoundHedges() {
        assertThat(HedgeBench.config("", 1234).model("primary").orElseThrow().hedge()).isEmpty();
        assertThat(HedgeBench.config(HedgeBench.hedgeLine("200ms"), 1234).model("primary").orElseThrow().hedge())
                .isPresent();
    }

    @Test
    void givenAStallOfNothing_thenTheUpstreamRefusesToStart() {
        Vertx vertx = Vertx.vertx();
        try {
            assertThatThrownBy(() -> StallingUpstream.start(vertx, 10, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("stallMillis");
        } finally {
            vertx.close();
        }
    }
}
