package io.agentfuse.redis;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The scanner follows RESP's framing, in any split of the bytes, and stops at the first element over its limits. */
class RespScannerTest {

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }

    /** {@code text} fed one byte at a time, as the worst split of reads would. */
    private static String byteByByte(RespScanner scanner, String text) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            String refused = scanner.scan(Unpooled.wrappedBuffer(new byte[] {b}));
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    @Test
    void repliesWithinTheLimitsPassWhateverTheirSplit() {
        String replies = "+OK\r\n:42\r\n$5\r\nhe$\r\n\r\n*3\r\n$7\r\nmessage\r\n$3\r\nch1\r\n$4\r\n*9\r\n\r\n"
                + ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$0\r\n\r\n$-1\r\n_\r\n%1\r\n+a\r\n#t\r\n-ERR no\r\n";

        assertThat(new RespScanner(16, 4).scan(bytes(replies))).isNull();
        assertThat(byteByByte(new RespScanner(16, 4), replies)).isNull();
    }

    @Test
    void aBulkStringOverTheLimitIsRefusedAtItsHeader() {
        String message = ">3\r\n$7\r\nmessage\r\n$3\r\nch1\r\n$31457280\r\n";

        assertThat(new RespScanner(1 << 20, 1024).scan(bytes(message)))
                .isEqualTo("a bulk string of 31457280 bytes, over the limit of 1048576");
        assertThat(byteByByte(new RespScanner(1 << 20, 1024), message)).contains("31457280 bytes");
    }

    @Test
    void aHugeAggregateOrAnEndlessLineIsRefused() {
        assertThat(new RespScanner(16, 4).scan(bytes("*5\r\n"))).contains("5 elements");
        assertThat(new RespScanner(16, 4).scan(bytes("+" + "x".repeat(17)))).contains("a line longer than 16 bytes");
        assertThat(new RespScanner(16, 4).scan(bytes("$abc\r\n"))).contains("unknown length");
    }

    @Test
    void theBulkStringsPayloadIsNotTakenForFraming() {
        // a payload that looks like a huge header must be skipped, not read
        String payload = "$99999999\r\n";

        assertThat(new RespScanner(16, 4).scan(bytes("$" + payload.length() + "\r\n" + payload + "\r\n+OK\r\n"))).isNull();
    }
}
