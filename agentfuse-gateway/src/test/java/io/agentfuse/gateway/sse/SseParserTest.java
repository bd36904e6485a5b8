package io.agentfuse.gateway.sse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SseParserTest {

    private final List<SseEvent> events = new ArrayList<>();
    private final SseParser parser = new SseParser(events::add);

    @Test
    void parsesNamedEventWithData() {
        parser.feed(Buffer.buffer("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));

        assertThat(events).containsExactly(SseEvent.named("message_stop", "{\"type\":\"message_stop\"}"));
    }

    @Test
    void anEncodedEventParsesBackWithItsLinesJoinedByLineFeeds() {
        SseEvent event = new SseEvent("delta", "one\r\ntwo\rthree\n\nfour\n", "7");

        assertThat(event.encode()).isEqualTo("event: delta\nid: 7\ndata: one\ndata: two\ndata: three\ndata: \n"
                + "data: four\ndata: \n\n");
        parser.feed(event.appendTo(Buffer.buffer()));

        assertThat(events).containsExactly(new SseEvent("delta", "one\ntwo\nthree\n\nfour\n", "7"));
    }

    @Test
    void readsABufferThatIsASliceOfALargerOne() {
        Buffer whole = Buffer.buffer("xxxxxdata: {\"a\":1}\n\nyyyyy");

        parser.feed(whole.slice(5, whole.length() - 5));

        assertThat(events).containsExactly(SseEvent.data("{\"a\":1}"));
    }

    @Test
    void readsDirectChunksThroughOneReusedArrayWithoutMixingThemUp() {
        // A line split over three direct chunks, the middle one longer than the parser's scratch
        // array, and the chunks' memory overwritten after each feed, as a socket's read buffer is
        String longValue = "v".repeat(20_000);
        String wire = "event: a\ndata: {\"x\":\"" + longValue + "\"}\n\ndata: second\n\n";
        int[] cuts = {7, 12_000, wire.length()};
        ByteBuf reused = Unpooled.directBuffer(wire.length());
        int from = 0;
        for (int cut : cuts) {
            reused.clear().writeCharSequence(wire.substring(from, cut), StandardCharsets.UTF_8);
            parser.feed(reused);
            reused.setZero(0, reused.capacity());
            from = cut;
        }

        assertThat(events).containsExactly(SseEvent.named("a", "{\"x\":\"" + longValue + "\"}"), SseEvent.data("second"));
        reused.release();
    }

    @Test
    void readsABufferWhoseBytesAreNotInAnArray() {
        ByteBuf direct = Unpooled.directBuffer();
        direct.writeCharSequence("data: {\"a\":1}\n\n", StandardCharsets.UTF_8);

        parser.feed(VertxHooks.buffer(direct));

        assertThat(events).containsExactly(SseEvent.data("{\"a\":1}"));
    }

    @Test
    void aParsedEventIsRelayedAsTheBytesItCameIn() {
        String wire = "event: content_block_delta\ndata: {\"text\":\"h\u00e9llo \u2603\"}\n\n";

        parser.feed(Buffer.buffer(wire));

        SseEvent event = events.get(0);
        assertThat(event.appendTo(Buffer.buffer()).toString(StandardCharsets.UTF_8)).isEqualTo(wire);
        assertThat(event.dataBytes()).isEqualTo("{\"text\":\"h\u00e9llo \u2603\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(event).isEqualTo(SseEvent.named("content_block_delta", "{\"text\":\"h\u00e9llo \u2603\"}"));
    }

    @Test
    void anEventOfSeveralDataLinesIsRelayedLineByLineAndTheOneLineEventAfterItAsItCame() {
        String several = "data: first\r\ndata: second\r\n\r\n";
        String one = "data: third\n\n";

        parser.feed(Buffer.buffer(several + one + several));

        assertThat(events).extracting(event -> event.appendTo(Buffer.buffer()).toString(StandardCharsets.UTF_8))
                .containsExactly("data: first\ndata: second\n\n", one, "data: first\ndata: second\n\n");
    }

    @Test
    void theWireLengthOfAnEventAsProvidersSendItIsExactAndOfAnyOtherAnEstimate() {
        parser.feed(Buffer.buffer("event: content_block_delta\nid: 42\ndata: {\"text\":\"h\u00e9llo \u2603\"}\n\n"
                + "data: [DONE]\n\n"));
        SseEvent multiLine = new SseEvent("delta", "line one\nline two", null);

        assertThat(events).allSatisfy(event -> assertThat(event.wireLength()).isEqualTo(event.toBuffer().length()));
        assertThat(multiLine.wireLength()).isCloseTo(multiLine.toBuffer().length(), within(8));
    }

    @Test
    void knowsOpenAisEndMarkerWithoutDecodingIt() {
        parser.feed(Buffer.buffer("data: [DONE]\n\ndata: [DONE] \n\n"));

        assertThat(events).extracting(SseEvent::isDone).containsExactly(true, false);
    }

    @Test
    void joinsSplitLinesAcrossBuffers() {
        parser.feed(Buffer.buffer("da"));
        parser.feed(Buffer.buffer("ta: hel"));
        parser.feed(Buffer.buffer("lo\n"));
        assertThat(events).isEmpty();

        parser.feed(Buffer.buffer("\n"));

        assertThat(events).containsExactly(SseEvent.data("hello"));
    }

    @Test
    void treatsCrlfSplitBetweenBuffersAsOneLineEnd() {
        parser.feed(Buffer.buffer("data: a\r"));
        parser.feed(Buffer.buffer("\n\r"));
        parser.feed(Buffer.buffer("\ndata: b\r\r"));

        assertThat(events).containsExactly(SseEvent.data("a"), SseEvent.data("b"));
    }

    @Test
    void joinsMultipleDataLinesWithNewline() {
        parser.feed(Buffer.buffer("data: first\ndata: second\n\n"));

        assertThat(events).containsExactly(SseEvent.data("first\nsecond"));
    }

    @Test
    void ignoresCommentsAndEventsWithoutData() {
        parser.feed(Buffer.buffer(": keep-alive\n\nevent: ping\n\nretry: 100\ndata:x\n\n"));

        assertThat(events).containsExactly(SseEvent.data("x"));
    }

    @Test
    void keepsMultiByteCharacterSplitAcrossBuffers() {
        byte[] bytes = "data: héllo €\n\n".getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            parser.feed(Buffer.buffer(new byte[] {b}));
        }

        assertThat(events).containsExactly(SseEvent.data("héllo €"));
    }

    @Test
    void skipsLeadingByteOrderMark() {
        parser.feed(Buffer.buffer(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}).appendString("data: x\n\n"));

        assertThat(events).containsExactly(SseEvent.data("x"));
    }

    @Test
    void dispatchesUnterminatedLastEventAtEnd() {
        parser.feed(Buffer.buffer("data: [DONE]"));

        parser.end();

        assertThat(events).containsExactly(SseEvent.DONE);
    }

    @Test
    void failsOnLineLongerThanLimit() {
        SseParser small = new SseParser(events::add, 8);

        assertThatThrownBy(() -> small.feed(Buffer.buffer("data: 123456789")))
                .isInstanceOf(SseEventTooLongException.class)
                .hasMessageContaining("8 bytes");
    }

    @Test
    void failsOnAnEventWhoseDataLinesAddUpPastTheLimit() {
        SseParser small = new SseParser(events::add, 16);

        assertThatThrownBy(() -> small.feed(Buffer.buffer("data: 123456\ndata: 123456\ndata: 123456\n")))
                .isInstanceOf(SseEventTooLongException.class)
                .hasMessageContaining("SSE event longer than 16 bytes");
        assertThat(events).isEmpty();
    }

    @Test
    void aFailingSinkIsNotTakenForAnOverLongEvent() {
        IllegalStateException writeFailed = new IllegalStateException("response already written");
        SseParser failing = new SseParser(event -> {
            throw writeFailed;
        }, 64);

        assertThatThrownBy(() -> failing.feed(Buffer.buffer("data: short\n\n"))).isSameAs(writeFailed);
    }

    @Test
    void encodedEventsParseBackToThemselves() {
        SseEvent multiLine = new SseEvent("delta", "line one\nline two", "7");

        parser.feed(multiLine.toBuffer());

        assertThat(events).containsExactly(multiLine);
    }

    @Property
    void anySplitOfAStreamYieldsTheSameEvents(@ForAll @IntRange(min = 1, max = 40) int pieceSize) {
        String stream = "event: a\r\ndata: {\"x\": \"ü\"}\r\n\r\n: comment\ndata: b\rdata: c\r\rdata: [DONE]\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        List<SseEvent> parsed = new ArrayList<>();
        SseParser pieces = new SseParser(parsed::add);

        for (int i = 0; i < bytes.length; i += pieceSize) {
            pieces.feed(Buffer.buffer(java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + pieceSize))));
        }

        assertThat(parsed).containsExactly(SseEvent.named("a", "{\"x\": \"ü\"}"), SseEvent.data("b\nc"), SseEvent.DONE);
    }
}
