package io.agentfuse.gateway.server;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class LoopClockTicksTest {

    @Test
    void refreshesTheClockOnceEveryFewRequests() {
        AtomicInteger refreshes = new AtomicInteger();
        LoopClockTicks ticks = new LoopClockTicks(refreshes::incrementAndGet);

        for (int request = 1; request <= 3 * LoopClockTicks.REQUESTS_PER_REFRESH + 1; request++) {
            ticks.onRequest();
            assertThat(refreshes).as("after request %d", request).hasValue(request / LoopClockTicks.REQUESTS_PER_REFRESH);
        }
    }
}
