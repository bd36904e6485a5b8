package io.agentfuse.gateway.http;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class JsonPiecesTest {

    @Test
    void saysWhatToBufferSaysByteForByte() {
        // Given bodies of every kind of value, escapes and characters outside ASCII among them
        JsonObject small = new JsonObject().put("model", "gpt-4o").put("n", 1).put("t", 0.7).put("big", Long.MAX_VALUE)
                .put("exact", new BigDecimal("1e400")).put("stream", true).putNull("stop").put("empty", new JsonObject())
                .put("none", new JsonArray()).put("text", "h\u00e9 \"q\" \\ \n\t\u0001 \ud83d\ude00 \u2028");
        JsonArray list = new JsonArray().add(small).add("x").add(2).addNull();
        JsonObject large = new JsonObject().put("messages", new JsonArray().add(small)
                .add(new JsonObject().put("content", "\u00e9\ud83d\ude00\"".repeat(200_000))).add(list));

        for (Object value : new Object[] {small, list, large, new JsonObject()}) {
            // When it is encoded in pieces
            Buffer pieces = JsonPieces.encode(value);

            // Then its bytes are those of Vert.x's own encoding
            Buffer whole = value instanceof JsonObject object ? object.toBuffer() : ((JsonArray) value).toBuffer();
            assertThat(pieces.length()).isEqualTo(whole.length());
            assertThat(pieces.equals(whole)).as("the %d bytes are Vert.x's", whole.length()).isTrue();
        }
    }

    @Property(tries = 200)
    void saysWhatToBufferSaysWhereverAPieceEnds(@ForAll @StringLength(max = 40) String text,
                                                @ForAll @IntRange(max = 300_000) int padding) {
        JsonObject body = new JsonObject().put("pad", "p".repeat(padding)).put("text", text)
                .put("more", new JsonArray().add(text).add(padding));

        assertThat(JsonPieces.encode(body).equals(body.toBuffer())).isTrue();
    }

    @Test
    void aLargeBodyIsHeldInNoArrayLargerThanAPiece() {
        // Given a 4 MB body (a screenshot's data URL, say)
        JsonObject body = new JsonObject().put("url", "data:image/png;base64," + "AbCd+/9z".repeat(512 * 1024));

        // When it is encoded
        ByteBuf bytes = VertxHooks.byteBuf(JsonPieces.encode(body));

        // Then it is many pieces, none of them an array the size of the body
        ByteBuffer[] pieces = bytes.nioBuffers();
        assertThat(pieces).hasSizeGreaterThan(1);
        for (ByteBuffer piece : pieces) {
            assertThat(piece.remaining()).isLessThanOrEqualTo(JsonPieces.LARGEST_PIECE);
            assertThat(piece.hasArray() ? piece.array().length : 0).isLessThanOrEqualTo(JsonPieces.LARGEST_PIECE);
        }
    }

    @Test
    void aSmallBodyIsOneArrayOfItsOwnSize() {
        JsonObject body = new JsonObject().put("model", "gpt-4o").put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", "hello")));

        ByteBuf bytes = VertxHooks.byteBuf(JsonPieces.encode(body));

        assertThat(bytes.nioBufferCount()).isEqualTo(1);
        assertThat(bytes.hasArray()).isTrue();
        assertThat(bytes.array()).hasSize(body.toBuffer().length());
    }
}
