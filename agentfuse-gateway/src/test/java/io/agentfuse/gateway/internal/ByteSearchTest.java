package io.agentfuse.gateway.internal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ByteSearchTest {

    @Test
    void findsTheFirstLineEndOfEitherKind() {
        byte[] line = "data: {\"a\":1}\r\n\n".getBytes(StandardCharsets.US_ASCII);

        assertThat(ByteSearch.lineEnd(line, 0, line.length)).isEqualTo(13);
        assertThat(ByteSearch.lineEnd(line, 14, line.length)).isEqualTo(14);
        assertThat(ByteSearch.lineEnd(line, 0, 13)).as("none before the end given").isEqualTo(13);
        assertThat(ByteSearch.lineEnd(line, 5, 5)).isEqualTo(5);
    }

    /**
     * Any bytes, any range: the same answer as a byte-by-byte loop — near line ends the bytes that
     * differ from LF or CR by one bit, or only in the high bit, and runs of zeros, which a looser
     * bit trick mistakes for matches.
     */
    @Property(tries = 3000)
    void findsWhatAByteByByteLoopFinds(@ForAll("bytes") byte[] bytes, @ForAll @IntRange(max = 80) int fromSeed,
                                       @ForAll @IntRange(max = 80) int toSeed) {
        int from = Math.min(fromSeed, bytes.length);
        int to = Math.max(from, bytes.length - Math.min(toSeed, bytes.length));

        assertThat(ByteSearch.lineEnd(bytes, from, to)).isEqualTo(byteByByte(bytes, from, to));
    }

    @Test
    void aStringsPlainRunEndsAtWhatTheJsonScanReadsItself() {
        byte[] text = "ab cdefgh~ijk\"".getBytes(StandardCharsets.UTF_8);

        assertThat(ByteSearch.jsonStringPlainEnd(text, 0, text.length)).isEqualTo(text.length - 1);
        for (String stop : new String[] {"\\", "\u001f", "\t", "é", "\u007f"}) {
            byte[] bytes = ("0123456789" + stop + "x").getBytes(StandardCharsets.UTF_8);
            int expected = stop.equals("\u007f") ? bytes.length : 10; // DEL is plain in a JSON string
            assertThat(ByteSearch.jsonStringPlainEnd(bytes, 0, bytes.length)).as(stop).isEqualTo(expected);
        }
    }

    @Property(tries = 3000)
    void findsTheEndOfAPlainRunAsAByteByByteLoopDoes(@ForAll("stringBytes") byte[] bytes,
                                                      @ForAll @IntRange(max = 80) int fromSeed,
                                                      @ForAll @IntRange(max = 80) int toSeed) {
        int from = Math.min(fromSeed, bytes.length);
        int to = Math.max(from, bytes.length - Math.min(toSeed, bytes.length));
        int i = from;
        while (i < to && bytes[i] >= 0x20 && bytes[i] != '"' && bytes[i] != '\\') {
            i++;
        }

        assertThat(ByteSearch.jsonStringPlainEnd(bytes, from, to)).isEqualTo(i);
    }

    /** Bytes near the edges of each kind that ends a plain run: 0x1F/0x20, the quote, the backslash, 0x7F/0x80. */
    @Provide
    Arbitrary<byte[]> stringBytes() {
        Arbitrary<Byte> tricky = Arbitraries.of((byte) 0x1F, (byte) 0x20, (byte) 0x00, (byte) '"', (byte) 0x23, (byte) 0x21,
                (byte) '\\', (byte) 0x5B, (byte) 0x5D, (byte) 0x7F, (byte) 0x80, (byte) 0xA2, (byte) 0xDC, (byte) 0xFF,
                (byte) 0x9F, (byte) 0xBF);
        Arbitrary<Byte> plain = Arbitraries.bytes().between((byte) 0x20, (byte) 0x7E);
        return Arbitraries.frequencyOf(Tuple.of(1, tricky), Tuple.of(6, plain), Tuple.of(1, Arbitraries.bytes()))
                .array(byte[].class).ofMaxSize(120);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        Arbitrary<Byte> tricky = Arbitraries.of((byte) '\n', (byte) '\r', (byte) 0x8A, (byte) 0x8D, (byte) 0x0B, (byte) 0x0C,
                (byte) 0x0E, (byte) 0x08, (byte) 0x00, (byte) 0xFF, (byte) 0x80, (byte) 0x7F, (byte) 'a');
        Arbitrary<Byte> any = Arbitraries.bytes();
        return Arbitraries.frequencyOf(Tuple.of(1, tricky), Tuple.of(3, any)).array(byte[].class).ofMaxSize(120);
    }

    private static int byteByByte(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && bytes[i] != '\n' && bytes[i] != '\r') {
            i++;
        }
        return i;
    }
}
