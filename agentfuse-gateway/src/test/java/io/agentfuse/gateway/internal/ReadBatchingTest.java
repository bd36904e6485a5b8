package io.agentfuse.gateway.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The handler in a real Netty pipeline ({@link EmbeddedChannel}: one {@code writeInbound} is one
 * read, its messages then a read-complete), fed pooled buffers as the HTTP decoder gives them.
 */
class ReadBatchingTest {

    private static final int LIMIT = 64;

    private final List<ByteBuf> given = new ArrayList<>();
    private final List<HttpContent> read = new ArrayList<>();
    private EmbeddedChannel channel = new EmbeddedChannel(new ReadBatching(LIMIT));

    @AfterEach
    void everyBufferGivenIsReleased() {
        read.forEach(HttpContent::release);
        channel.finishAndReleaseAll();
        assertThat(given).allSatisfy(buffer -> assertThat(buffer.refCnt()).isZero());
        read.clear();
        given.clear();
    }

    @Test
    void theChunksOfOneReadArePassedOnAsOneInTheirOrder() {
        channel.writeInbound(chunk("data: 1\n\n"), chunk("data: 2\n\n"), chunk("data: 3\n\n"));

        assertThat(texts(passedOn())).containsExactly("data: 1\n\ndata: 2\n\ndata: 3\n\n");
    }

    @Test
    void aLoneChunkIsPassedOnAsItCame() {
        HttpContent lone = chunk("data: 1\n\n");

        channel.writeInbound(lone);

        assertThat(passedOn()).containsExactly(lone);
    }

    @Test
    void eachReadIsPassedOnBeforeTheNextBegins() {
        channel.writeInbound(chunk("a"), chunk("b"));
        channel.writeInbound(chunk("c"));

        assertThat(texts(passedOn())).containsExactly("ab", "c");
    }

    @Test
    void theLastChunkTakesTheHeldOnesInFrontOfItWithItsTrailers() {
        DefaultLastHttpContent last = new DefaultLastHttpContent(pooled("data: [DONE]\n\n"));
        last.trailingHeaders().add("x-trailer", "kept");

        channel.writeInbound(chunk("data: 1\n\n"), last);

        List<Object> out = passedOn();
        assertThat(out).hasSize(1);
        assertThat(out.get(0)).isInstanceOf(LastHttpContent.class);
        assertThat(texts(out)).containsExactly("data: 1\n\ndata: [DONE]\n\n");
        assertThat(((LastHttpContent) out.get(0)).trailingHeaders().get("x-trailer")).isEqualTo("kept");
    }

    @Test
    void aLastChunkWithNothingHeldIsPassedOnAsItCame() {
        channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat(passedOn()).containsExactly(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    @Test
    void aResponseHeadAfterHeldChunksFollowsThem() {
        DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);

        channel.writeInbound(chunk("a"), chunk("b"), head, chunk("c"));

        List<Object> out = passedOn();
        assertThat(out).hasSize(3);
        assertThat(text(out.get(0))).isEqualTo("ab");
        assertThat(out.get(1)).isSameAs(head);
        assertThat(text(out.get(2))).isEqualTo("c");
    }

    @Test
    void aChunkThatFailedToDecodeIsPassedOnAsItCameAfterTheHeldOnes() {
        HttpContent broken = chunk("x");
        broken.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("bad chunk size")));

        channel.writeInbound(chunk("a"), chunk("b"), broken);

        List<Object> out = passedOn();
        assertThat(texts(out.subList(0, 1))).containsExactly("ab");
        assertThat(out.get(1)).isSameAs(broken);
    }

    @Test
    void heldChunksArePassedOnBeforeTheConnectionCloses() {
        List<String> seen = new ArrayList<>();
        channel = new EmbeddedChannel(new ReadBatching(LIMIT), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object message) {
                seen.add("read " + text(message));
                ((HttpContent) message).release();
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                seen.add("closed");
            }
        });
        channel.pipeline().fireChannelRead(chunk("a"));
        channel.pipeline().fireChannelRead(chunk("b"));

        channel.close();

        assertThat(seen).containsExactly("read ab", "closed");
    }

    @Test
    void heldChunksArePassedOnWhenTheHandlerIsTakenOut() {
        // Given two chunks of a read still held (the read is not complete)
        channel.pipeline().fireChannelRead(chunk("a"));
        channel.pipeline().fireChannelRead(chunk("b"));
        assertThat(passedOn()).isEmpty();

        // When the handler leaves the pipeline (a connection upgraded, say)
        channel.pipeline().remove(ReadBatching.class);

        // Then what it held goes on, joined and in order, and later reads pass it by
        channel.writeInbound(chunk("c"));
        assertThat(texts(passedOn())).containsExactly("ab", "c");
    }

    @Test
    void aJoinedChunkHoldsNoMoreThanTheLimit() {
        String forty = "x".repeat(40);

        channel.writeInbound(chunk(forty), chunk(forty), chunk("y".repeat(20)), chunk(forty),
                new DefaultLastHttpContent(pooled(forty)));

        List<Object> out = passedOn();
        assertThat(texts(out)).containsExactly(forty, forty + "y".repeat(20), forty, forty);
        assertThat(out.get(3)).isInstanceOf(LastHttpContent.class);
    }

    @Test
    void aJoinedChunkTakesNoMoreThanItsCountOfChunks() {
        Object[] chunks = new Object[ReadBatching.MAX_CHUNKS + 1];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = chunk("z");
        }
        channel = new EmbeddedChannel(new ReadBatching(1024));

        channel.writeInbound(chunks);

        assertThat(texts(passedOn())).containsExactly("z".repeat(ReadBatching.MAX_CHUNKS), "z");
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> new ReadBatching(0)).hasMessage("maxBytes must be >= 1, but was 0");
    }

    @Test
    void emptyChunksAreDropped() {
        channel.writeInbound(chunk(""), chunk("a"), chunk(""));

        assertThat(texts(passedOn())).containsExactly("a");
    }

    @Property(tries = 200)
    void anySplitIntoReadsPassesOnTheSameBytesInOrder(@ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 40) Integer> chunkSizes,
                                                     @ForAll @IntRange(min = 1, max = 8) int chunksPerRead) {
        StringBuilder sent = new StringBuilder();
        List<HttpContent> chunks = new ArrayList<>();
        for (int size : chunkSizes) {
            String piece = String.valueOf((char) ('a' + sent.length() % 26)).repeat(size);
            sent.append(piece);
            chunks.add(chunk(piece));
        }
        for (int from = 0; from < chunks.size(); from += chunksPerRead) {
            channel.writeInbound(chunks.subList(from, Math.min(from + chunksPerRead, chunks.size())).toArray());
        }
        channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT);

        List<Object> out = passedOn();
        assertThat(String.join("", texts(out))).isEqualTo(sent.toString());
        assertThat(out.get(out.size() - 1)).isInstanceOf(LastHttpContent.class);
        assertThat(texts(out)).allSatisfy(text -> assertThat(text.length()).isLessThanOrEqualTo(LIMIT));
        everyBufferGivenIsReleased(); // jqwik runs no @AfterEach
        channel = new EmbeddedChannel(new ReadBatching(LIMIT));
    }

    private HttpContent chunk(String text) {
        return new DefaultHttpContent(pooled(text));
    }

    private ByteBuf pooled(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
        given.add(buffer);
        return buffer;
    }

    private List<Object> passedOn() {
        List<Object> out = new ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ) {
            out.add(message);
            if (message instanceof HttpContent content) {
                read.add(content);
            }
        }
        return out;
    }

    private static List<String> texts(List<Object> messages) {
        List<String> texts = new ArrayList<>();
        for (Object message : messages) {
            texts.add(text(message));
        }
        return texts;
    }

    private static String text(Object message) {
        return ((HttpContent) message).content().toString(StandardCharsets.UTF_8);
    }
}
