package io.agentfuse.gateway.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The body pieces one read brings are handed on to Vert.x as one piece on the heap, in order, up
 * to {@link FramingCheck#MAX_PIECE_BYTES}, with the answer's end after them; what the next read
 * brings is a piece of its own. On Netty's embedded channel, one {@code writeInbound} per read.
 */
class FramingCheckPiecesTest {

    @Test
    void theEventsOfOneReadAreHandedOnAsOnePieceBeforeTheEnd() {
        EmbeddedChannel channel = new EmbeddedChannel(new FramingCheck());
        List<Object> read = new ArrayList<>();
        read.add(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        for (int i = 0; i < 21; i++) {
            read.add(piece("data: {\"n\":" + i + "}\n\n", true));
        }
        read.add(LastHttpContent.EMPTY_LAST_CONTENT);

        channel.writeInbound(read.toArray());

        assertThat((Object) channel.readInbound()).isInstanceOf(HttpResponse.class);
        HttpContent events = channel.readInbound();
        assertThat(events).isNotInstanceOf(LastHttpContent.class);
        assertThat(events.content().isDirect()).isFalse();
        assertThat(events.content().toString(StandardCharsets.UTF_8))
                .startsWith("data: {\"n\":0}\n\ndata: {\"n\":1}\n\n").endsWith("data: {\"n\":20}\n\n");
        events.release();
        assertThat((Object) channel.readInbound()).isInstanceOf(LastHttpContent.class);
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void theBytesOfAnAnswersEndJoinThePieceAndTheEndKeepsItsTrailers() {
        EmbeddedChannel channel = new EmbeddedChannel(new FramingCheck());
        DefaultLastHttpContent end = new DefaultLastHttpContent(Unpooled.directBuffer().writeBytes(
                "\"}".getBytes(StandardCharsets.UTF_8)));
        end.trailingHeaders().set("x-trailer", "kept");

        channel.writeInbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                piece("{\"answer\":\"", true), piece("text", true), end);

        assertThat((Object) channel.readInbound()).isInstanceOf(HttpResponse.class);
        HttpContent body = channel.readInbound();
        assertThat(body).isNotInstanceOf(LastHttpContent.class);
        assertThat(body.content().toString(StandardCharsets.UTF_8)).isEqualTo("{\"answer\":\"text\"}");
        body.release();
        LastHttpContent last = channel.readInbound();
        assertThat(last.content().isReadable()).isFalse();
        assertThat(last.trailingHeaders().get("x-trailer")).isEqualTo("kept");
        assertThat(end.refCnt()).as("the end's own buffer is let go").isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void piecesBeyondTheLargestAreHandedOnInPiecesOfAtMostItsSize() {
        EmbeddedChannel channel = afterTheHead();
        String kilobyte = "k".repeat(1024);

        channel.writeInbound(repeated(piece(kilobyte, true), 20));

        StringBuilder all = new StringBuilder();
        for (HttpContent content; (content = channel.readInbound()) != null; content.release()) {
            assertThat(content.content().readableBytes()).isBetween(1, FramingCheck.MAX_PIECE_BYTES);
            all.append(content.content().toString(StandardCharsets.UTF_8));
        }
        assertThat(all.toString()).isEqualTo(kilobyte.repeat(20));
        channel.finishAndReleaseAll();
    }

    @Test
    void thePieceHandedOnIsOneArrayOfItsSizeAndTheDecodersPiecesAreLetGo() {
        EmbeddedChannel channel = afterTheHead();
        HttpContent[] read = pieces(21, i -> "data: {\"choices\":[{\"delta\":{\"content\":\"token " + i + "\"}}]}\n\n");

        channel.writeInbound((Object[]) read);

        HttpContent events = channel.readInbound();
        int size = events.content().readableBytes();
        assertThat(size).isGreaterThan(1000);
        assertThat(events.content().hasArray()).isTrue();
        assertThat(events.content().array()).as("one array of the events' size, not one grown to more").hasSize(size);
        assertThat(read).allSatisfy(piece -> assertThat(piece.refCnt()).isZero());
        events.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aReadOfManyTinyPiecesIsHandedOnInOrderWithoutKeepingThemAll() {
        EmbeddedChannel channel = afterTheHead();
        HttpContent[] read = pieces(1_000, i -> Integer.toString(i % 10)); // a provider that sends a byte per chunk

        channel.writeInbound((Object[]) read);

        StringBuilder all = new StringBuilder();
        int handedOn = 0;
        for (HttpContent content; (content = channel.readInbound()) != null; content.release()) {
            assertThat(content.content().readableBytes()).isLessThanOrEqualTo(FramingCheck.MAX_KEPT_PIECES);
            all.append(content.content().toString(StandardCharsets.UTF_8));
            handedOn++;
        }
        assertThat(all.toString()).isEqualTo("0123456789".repeat(100));
        assertThat(handedOn).isEqualTo((read.length + FramingCheck.MAX_KEPT_PIECES - 1) / FramingCheck.MAX_KEPT_PIECES);
        assertThat(read).allSatisfy(piece -> assertThat(piece.refCnt()).isZero());
        channel.finishAndReleaseAll();
    }

    @Test
    void eachReadHandsOnItsOwnPiece() {
        EmbeddedChannel channel = afterTheHead();

        channel.writeInbound(piece("first", true));
        HttpContent first = channel.readInbound();
        channel.writeInbound(piece("second", false));
        HttpContent second = channel.readInbound();

        assertThat(first.content().toString(StandardCharsets.UTF_8)).isEqualTo("first");
        assertThat(second.content().toString(StandardCharsets.UTF_8)).isEqualTo("second");
        first.release();
        second.release();
        channel.finishAndReleaseAll();
    }

    /** A check that has handed on an answer's head, ready for its body. */
    private static EmbeddedChannel afterTheHead() {
        EmbeddedChannel channel = new EmbeddedChannel(new FramingCheck());
        channel.writeInbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        channel.readInbound();
        return channel;
    }

    /** {@code count} body pieces in direct memory, as the decoder gives them, the i-th saying {@code text(i)}. */
    private static HttpContent[] pieces(int count, IntFunction<String> text) {
        HttpContent[] pieces = new HttpContent[count];
        for (int i = 0; i < count; i++) {
            pieces[i] = piece(text.apply(i), true);
        }
        return pieces;
    }

    private static HttpContent piece(String text, boolean direct) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf buffer = direct ? Unpooled.directBuffer(bytes.length) : Unpooled.buffer(bytes.length);
        return new DefaultHttpContent(buffer.writeBytes(bytes));
    }

    private static Object[] repeated(HttpContent first, int times) {
        Object[] pieces = new Object[times];
        pieces[0] = first;
        for (int i = 1; i < times; i++) {
            pieces[i] = first.copy();
        }
        return pieces;
    }
}
