package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.jackson.HybridJacksonPool;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a JSON value as {@code JsonObject.toBuffer()} does, byte for byte, into pieces that are
 * never joined, so that its bytes are allocated about once. Vert.x's own encoding allocates a body
 * some three times over (Jackson's blocks, one array joining them, a copy of that array into the
 * buffer): measured 2.85 times a 4.5 MB body that a Claude Code turn with a 3.6 MB screenshot
 * becomes for OpenAI, for every attempt of a step that crosses dialects; the two larger copies are
 * arrays of the body's whole size, for which the collector must find room in one piece.
 *
 * <p>Jackson's generator writes into a recycled buffer of a few kilobytes and hands over what it
 * holds each time that fills. The first hand-over is copied into an array of exactly its length: a
 * body of a few kilobytes, as most are, is one array of its own size and a few small objects (a
 * 2 KB body: 2.6 KB allocated, where Vert.x's encoding takes 5 to 8 KB). Later hand-overs go into
 * pieces a quarter the size of what came before, from {@value #SMALLEST_PIECE} to
 * {@value #LARGEST_PIECE} bytes: a large body costs its size and at most one piece's spare room, in
 * arrays small enough for the young generation. The pieces go to the socket as one composite buffer
 * over heap arrays, as {@code ForwardedBody}'s do: Vert.x hands a buffer it did not make to Netty as
 * an unreleasable view, so the result can be written again and says the same bytes each time.
 *
 * <p>Stateless and thread-safe. The result is not to be changed, and cannot grow.
 *
 * <pre>{@code
 * Buffer bytes = JsonPieces.encode(body); // the bytes of body.toBuffer()
 * }</pre>
 */
public final class JsonPieces {

    /** The largest piece: large enough that a body of megabytes is tens of pieces, not thousands. */
    static final int LARGEST_PIECE = 64 * 1024;
    /** The least piece after the first, about the generator's own buffer. */
    static final int SMALLEST_PIECE = 8 * 1024;

    /** Vert.x's factory as it writes (its settings are limits on reading), with its buffer recycling. */
    private static final JsonFactory FACTORY = JsonFactory.builder().recyclerPool(HybridJacksonPool.getInstance()).build();

    private JsonPieces() {
    }

    /**
     * {@code value} (a {@code JsonObject}, {@code JsonArray}, map, list or scalar) in JSON, without
     * white space, as {@code Json.encodeToBuffer} writes it.
     *
     * @throws EncodeException if it holds a value JSON has no form for
     */
    public static Buffer encode(Object value) {
        Pieces pieces = new Pieces();
        try (JsonGenerator generator = FACTORY.createGenerator(pieces)) {
            JacksonCodec.encodeJson(value, generator);
        } catch (IOException cannot) {
            throw new EncodeException(cannot.getMessage(), cannot); // never from Pieces; as Vert.x words it
        }
        return VertxHooks.buffer(pieces.written());
    }

    /** The bytes written so far: the pieces filled, then the one being filled. */
    private static final class Pieces extends OutputStream {
        private List<byte[]> filled;
        private byte[] piece;
        private int used;
        private int total;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int from, int length) {
            while (length > 0) {
                if (piece == null) {
                    piece = new byte[length];
                } else if (used == piece.length) {
                    if (filled == null) {
                        filled = new ArrayList<>();
                    }
                    filled.add(piece);
                    piece = new byte[Math.min(LARGEST_PIECE, Math.max(SMALLEST_PIECE, total / 4))];
                    used = 0;
                }
                int copied = Math.min(length, piece.length - used);
                System.arraycopy(bytes, from, piece, used, copied);
                used += copied;
                total += copied;
                from += copied;
                length -= copied;
            }
        }

        ByteBuf written() {
            if (piece == null) {
                return Unpooled.EMPTY_BUFFER;
            }
            ByteBuf last = Unpooled.wrappedBuffer(piece, 0, used);
            if (filled == null) {
                return last;
            }
            ByteBuf[] all = new ByteBuf[filled.size() + 1];
            for (int i = 0; i < filled.size(); i++) {
                all[i] = Unpooled.wrappedBuffer(filled.get(i));
            }
            all[all.length - 1] = last;
            // As many components as pieces: a composite over its bound copies them all into one.
            return Unpooled.wrappedBuffer(all.length, all);
        }
    }
}
