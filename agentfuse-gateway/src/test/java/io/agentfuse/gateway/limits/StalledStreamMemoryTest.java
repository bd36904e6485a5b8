package io.agentfuse.gateway.limits;

import static io.agentfuse.gateway.limits.IsolatedGateway.HOST;
import static io.agentfuse.gateway.limits.IsolatedGateway.chatBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

/**
 * A caller that stops reading a stream costs the gateway little heap for as long as it is let be
 * ({@code server.clientWriteTimeout}, 30 s by default): the provider is paused once the caller's
 * buffers are full, and what the gateway has read of it by then waits in a few buffers. Before the
 * provider connections' reads were bounded, each such stream of a provider sending as fast as it
 * was read held about a megabyte of its answer (Netty read up to sixteen times 64 KB before the
 * pause took effect) and seventy of them filled the 160 MiB heap of {@link StalledReadersTest}'s
 * gateway: nothing was answered any more. Before the relay judged its caller's back-pressure by
 * bytes, each also held half a megabyte of events in Vert.x's write queue. On the transport the
 * gateway picks here (io_uring where the kernel allows); {@link StalledStreamMemoryOnEpollTest} on epoll.
 */
class StalledStreamMemoryTest {

    private static final int STREAMS = 40;

    /**
     * The heap a stalled stream may hold, in KiB: its caller's and its provider's buffers. Measured
     * per stream: about 1 200 KiB before both fixes, 613 with only the provider's reads bounded, 475
     * with only the caller's back-pressure by bytes, 41 to 97 with both (ten runs, io_uring and epoll).
     */
    private static final long MOST_HELD_KIB = 256;

    /** Polls of {@link Eventually} (10 ms apart) in which the provider wrote nothing: the streams stand still. */
    private static final int STILL_POLLS = 50;

    @RegisterExtension
    static final IsolatedGateway gateway = new IsolatedGateway();

    @Test
    void aStalledStreamHoldsLittleOfItsProvidersAnswer() {
        assertStalledStreamsHoldLittle(gateway);
    }

    static void assertStalledStreamsHoldLittle(IsolatedGateway gateway) {
        List<RawSocket> stalled = new ArrayList<>();
        long beforeKib = gateway.liveHeapKib();
        int before = gateway.hostile().requests();
        long heldKib;
        try {
            for (int i = 0; i < STREAMS; i++) {
                RawSocket socket = RawSocket.open(gateway.port(), 4096);
                stalled.add(socket);
                socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("big-stream").put("stream", true).encode()));
            }
            // The provider's answers stand still: each waits for the gateway to take more, and no
            // byte went out for half a second. The gateway has stopped reading them (a gateway that
            // only read slowly, on a starved machine, would hold less now than later: never more).
            long[] lastBytes = {-1};
            int[] stillPolls = {0};
            Eventually.holds(gateway.vertx(), () -> {
                long bytes = gateway.hostile().endlessBytes();
                stillPolls[0] = bytes == lastBytes[0] ? stillPolls[0] + 1 : 0;
                lastBytes[0] = bytes;
                return gateway.hostile().requests() - before >= STREAMS && gateway.hostile().blockedAnswers() >= STREAMS
                        && stillPolls[0] >= STILL_POLLS;
            });
            heldKib = gateway.liveHeapKib() - beforeKib;
            System.out.println("[limits] " + STREAMS + " stalled streams: live heap +" + heldKib + " KiB");
        } finally {
            stalled.forEach(RawSocket::close);
        }

        assertThat(heldKib).as("live heap over the baseline with %d stalled streams", STREAMS)
                .isLessThan(STREAMS * MOST_HELD_KIB);
    }
}
