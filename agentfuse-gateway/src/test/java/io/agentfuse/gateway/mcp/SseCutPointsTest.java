package io.agentfuse.gateway.mcp;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where an SSE stream may be cut for an event of the proxy's: between events, never inside one. */
class SseCutPointsTest {

    @Test
    void aStreamMayBeCutAfterAWholeEventOrACommentAndNowhereInsideAnEvent() {
        SseCutPoints cuts = new SseCutPoints();

        assertThat(cuts.lastCutIn(Buffer.buffer(":keep-alive\n"))).isEqualTo(12);
        assertThat(cuts.lastCutIn(Buffer.buffer("event: message\ndata: {\"a\":"))).isEqualTo(-1);
        assertThat(cuts.atCutPoint()).isFalse();
        assertThat(cuts.lastCutIn(Buffer.buffer("1}\n\nevent: message\ndata: {"))).isEqualTo(4);
        assertThat(cuts.lastCutIn(Buffer.buffer("}\n:note\n"))).isEqualTo(-1);
        assertThat(cuts.lastCutIn(Buffer.buffer("\n"))).isEqualTo(1);
        assertThat(cuts.atCutPoint()).isTrue();
    }

    @Test
    void lineEndsAreLfCrlfOrCrAndACrlfSplitAcrossChunksCountsOnce() {
        SseCutPoints cuts = new SseCutPoints();

        assertThat(cuts.lastCutIn(Buffer.buffer("data: 1\r"))).isEqualTo(-1);
        // The LF completes the CRLF of the data line: it is not the blank line that ends the event
        assertThat(cuts.lastCutIn(Buffer.buffer("\n"))).isEqualTo(-1);
        assertThat(cuts.lastCutIn(Buffer.buffer("\r\ndata: 2\r"))).isEqualTo(2);
        assertThat(cuts.lastCutIn(Buffer.buffer("\r"))).isEqualTo(1);
        assertThat(cuts.atCutPoint()).isTrue();
    }
}
