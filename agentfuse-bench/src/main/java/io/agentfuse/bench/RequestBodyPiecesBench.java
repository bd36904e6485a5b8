package io.agentfuse.bench;

import io.agentfuse.bench.workload.CodingAgentConversation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the HTTP decoder's largest body piece ({@code maxChunkSize}, Vert.x's default 8 KB) costs on
 * the ~150 KB conversation ({@link CodingAgentConversation}) arriving in reads of up to 64 KB: the
 * request decoded by Netty's decoder (the base of Vert.x's and the gateway's), each body piece copied
 * into one buffer of the body's length and released, as the gateway's request decoder gathers a long
 * body (one buffer kept for every request, so that the figure is the pieces', not the collector's). Each {@code piece} is a slice of the read to make and free.
 * Run: {@code java -jar agentfuse-bench/target/benchmarks.jar RequestBodyPiecesBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RequestBodyPiecesBench {

    /** The most one read of the gateway's connections brings (Netty's default receive-buffer sizing). */
    private static final int READ_BYTES = 64 * 1024;

    @Param({"8192", "65536"})
    public int maxChunkSize;

    private final List<ByteBuf> reads = new ArrayList<>();
    private EmbeddedChannel channel;
    private Gather gather;

    @Setup
    public void setUp() {
        byte[] body = CodingAgentConversation.of(CodingAgentConversation.DEFAULT_TURNS).body("gpt-4o-mini")
                .toString().getBytes(StandardCharsets.UTF_8);
        byte[] head = ("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        for (int at = 0; at < request.length; at += READ_BYTES) {
            ByteBuf read = Unpooled.directBuffer(Math.min(READ_BYTES, request.length - at));
            read.writeBytes(request, at, Math.min(READ_BYTES, request.length - at));
            reads.add(read);
        }
        gather = new Gather(body.length);
        channel = new EmbeddedChannel(new HttpRequestDecoder(4096, 8192, maxChunkSize), gather);
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
    }

    @Benchmark
    public int decodeAndGather() {
        for (ByteBuf read : reads) {
            // Each read as the transport hands it over: a pooled buffer of its own, released by the decoder.
            ByteBuf copy = PooledByteBufAllocator.DEFAULT.directBuffer(read.readableBytes());
            copy.writeBytes(read, read.readerIndex(), read.readableBytes());
            channel.writeInbound(copy);
        }
        return gather.take();
    }

    /** Copies each body piece into one heap buffer of the body's length, as the gateway's decoder does. */
    private static final class Gather extends ChannelInboundHandlerAdapter {
        // One buffer for every request (the gateway makes one per request: the same for both sizes).
        private final ByteBuf body;
        private int pieces;
        private int gathered = -1;

        Gather(int length) {
            this.body = Unpooled.buffer(length);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            try {
                if (message instanceof HttpContent content) {
                    body.writeBytes(content.content());
                    pieces++;
                    if (message instanceof LastHttpContent) {
                        gathered = body.readableBytes() + pieces;
                        body.clear();
                        pieces = 0;
                    }
                }
            } finally {
                ReferenceCountUtil.release(message);
            }
        }

        int take() {
            if (gathered < 0) {
                throw new IllegalStateException("the request was not read whole");
            }
            int taken = gathered;
            gathered = -1;
            return taken;
        }
    }
}
