package io.agentfuse.gateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A long string is decoded into one string of its size, not four times it ({@link LongStrings}),
 * and every string, long or short, plain or not, where it stands in a body, decodes as Jackson
 * decodes it, with a memo or without.
 */
class LongStringsTest {

    /** The base64 of 3.6 MB that do not compress, as a screenshot's is. */
    private static final String BASE64 = base64(3_600_000, 7);

    private static String base64(int bytes, long seed) {
        byte[] data = new byte[bytes];
        new Random(seed).nextBytes(data);
        return Base64.getEncoder().encodeToString(data);
    }

    private static String screenshotTurn(String data) {
        return "{\"model\": \"claude\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"source\":"
                + " {\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"" + data + "\"}}]}]}";
    }

    @Test
    void aScreenshotsBase64IsDecodedIntoOneStringOfItsSize() {
        Buffer body = Buffer.buffer(screenshotTurn(BASE64));
        StrictJson.decode(body); // classes loaded

        long before = allocatedByThisThread();
        Object decoded = StrictJson.decode(body);
        long allocated = allocatedByThisThread() - before;

        assertThat(Json.decodeValue(body).equals(decoded)).as("decoded as Jackson decodes it").isTrue();
        assertThat(allocated).as("bytes allocated to decode %d chars of base64", BASE64.length())
                .isLessThan(BASE64.length() * 5L / 4);
    }

    @Test
    void aScreenshotsBase64NewToTheMemoIsDecodedIntoOneStringOfItsSizeToo() {
        ValueMemo memo = new ValueMemo(64, 64L << 20);
        StrictJson.decode(Buffer.buffer(screenshotTurn(base64(3_600_000, 8))), null, memo); // classes loaded
        Buffer body = Buffer.buffer(screenshotTurn(BASE64));

        long before = allocatedByThisThread();
        Object decoded = StrictJson.decode(body, null, memo);
        long allocated = allocatedByThisThread() - before;

        assertThat(Json.decodeValue(body).equals(decoded)).as("decoded as Jackson decodes it").isTrue();
        // The string, and the memo's copy of the message's bytes that finds it next turn.
        assertThat(allocated).as("bytes allocated to decode %d chars of base64", BASE64.length())
                .isLessThan(BASE64.length() * 9L / 4);
    }

    @Property(tries = 200)
    void everyStringDecodesAsJacksonDecodesIt(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            strings.add(string(random));
        }
        String raw = "{\"pad\": \"" + "p".repeat(8200) + "\", \"top\": " + strings.get(0) + ", \"messages\": ["
                + strings.get(1) + ", {\"content\": [{\"text\": " + strings.get(2) + "}, " + strings.get(3) + "]}],"
                + " \"nested\": {\"a\": " + strings.get(4) + ", \"b\": [" + strings.get(5) + "]}}";
        Buffer body = Buffer.buffer(raw);
        Object jackson = Json.decodeValue(body);

        assertThat(StrictJson.decode(body)).isEqualTo(jackson);
        ValueMemo memo = new ValueMemo(256, 1 << 22);
        assertThat(StrictJson.decode(body, new StrictJson.FieldSpans(), memo)).isEqualTo(jackson);
        assertThat(StrictJson.decode(body, new StrictJson.FieldSpans(), memo)).as("remembered").isEqualTo(jackson);
    }

    @Test
    void aLongStringWithAControlCharIsRefusedAsJacksonRefusesIt() {
        String raw = "{\"messages\": [{\"text\": \"" + "a".repeat(9000) + "\u0001" + "b".repeat(10) + "\"}]}";

        assertThatThrownBy(() -> StrictJson.decode(Buffer.buffer(raw))).isInstanceOf(DecodeException.class)
                .hasMessageContaining("CTRL-CHAR");
    }

    @Test
    void aLongStringThatIsNotClosedIsRefused() {
        String raw = "{\"messages\": [{\"text\": \"" + "a".repeat(9000); // long enough to be read apart

        assertThatThrownBy(() -> StrictJson.decode(Buffer.buffer(raw))).isInstanceOf(DecodeException.class);
    }

    /** A JSON string of 0 to 2 000 chars: plain ASCII, or with escapes, multi-byte chars, the DEL char. */
    private static String string(Random random) {
        int length = random.nextInt(4) == 0 ? random.nextInt(40) : LongStrings.FROM_BYTES - 3 + random.nextInt(2000);
        String[] rare = {"\\n", "\\\"", "\\\\", "\\u00e9", "é", "😀", "\u007f", "\\ud83d\\ude00"};
        StringBuilder string = new StringBuilder("\"");
        boolean plain = random.nextBoolean();
        for (int i = 0; i < length; i++) {
            char c = (char) (' ' + random.nextInt('~' - ' '));
            string.append(!plain && random.nextInt(300) == 0 ? rare[random.nextInt(rare.length)]
                    : c == '\\' || c == '"' ? "x" : String.valueOf(c));
        }
        return string.append('"').toString();
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
