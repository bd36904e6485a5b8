package io.agentfuse.gateway.limits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link StalledStreamMemoryTest} with the gateway on epoll, the transport where io_uring is not allowed. */
class StalledStreamMemoryOnEpollTest {

    @RegisterExtension
    static final IsolatedGateway gateway = IsolatedGateway.withServerKeys("transport: epoll");

    @Test
    void aStalledStreamHoldsLittleOfItsProvidersAnswer() {
        StalledStreamMemoryTest.assertStalledStreamsHoldLittle(gateway);
    }
}
