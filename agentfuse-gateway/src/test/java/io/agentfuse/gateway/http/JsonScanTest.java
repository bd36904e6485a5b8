package io.agentfuse.gateway.http;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.json.Json;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonScanTest {

    @Test
    void plainValuesOfEveryKindAreAccepted() {
        List<String> plain = List.of("{}", "[]", " { \"a\" : [ 1 , -2 , 0 ] , \"b\" : { } } ", "\"text\"", "true",
                "false", "null", "-0", "123456789012345678", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9\\ud800\"",
                "\"é 中文 😀\"", "{\"é\":\"\u007f\"}", "[[[[]]]]");

        for (String body : plain) {
            assertThat(scansWhole(bytes(body))).as(body).isTrue();
        }
    }

    @Test
    void whatThePlainPathDoesNotReadIsLeftToTheParser() {
        List<String> unclear = List.of("", " ", "{", "}", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\"}", "{\"a\" 1}",
                "01", "-", "+1", "1.5", "1e3", "1E3", "1234567890123456789", "1x", "tru", "nul", "True", "'a'",
                "\"tab\there\"", "\"\\x\"", "\"\\u00e\"", "\"\\u00eg\"", "\"open", "/* c */ 1", "{\"a\":1}{}",
                "\ufeff{}", "{\"\\u0061\":1}");

        for (String body : unclear) {
            assertThat(scansWhole(bytes(body))).as(body).isFalse();
        }
    }

    @Test
    void onlyWellFormedUtf8IsPlain() {
        byte[][] malformed = {
            {(byte) 0x80}, {(byte) 0xBF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF},
            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xC3, (byte) 0x28}};
        for (byte[] sequence : malformed) {
            byte[] body = new byte[sequence.length + 2];
            body[0] = '"';
            System.arraycopy(sequence, 0, body, 1, sequence.length);
            body[body.length - 1] = '"';
            assertThat(scansWhole(body)).as(Buffer.buffer(sequence).toString(StandardCharsets.ISO_8859_1)).isFalse();
        }
        assertThat(JsonText.utf8Length(bytes("é"), 0, 2)).isEqualTo(2);
        assertThat(JsonText.utf8Length(bytes("中"), 0, 3)).isEqualTo(3);
        assertThat(JsonText.utf8Length(bytes("😀"), 0, 4)).isEqualTo(4);
        assertThat(JsonText.utf8Length(bytes("\uFFFF"), 0, 3)).isEqualTo(3);
        assertThat(JsonText.utf8Length(bytes("\uDBFF\uDFFF"), 0, 4)).isEqualTo(4); // U+10FFFF
    }

    @Test
    void aNameLongerThanTheParserTakesIsLeftToIt() {
        byte[] body = bytes("{\"" + "n".repeat(60_000) + "\":1}");

        assertThatThrownBy(() -> Json.decodeValue(Buffer.buffer(body))).hasMessageContaining("Name length");
        assertThat(scansWhole(body)).isFalse();
        assertThat(scansWhole(bytes("{\"" + "n".repeat(40_000) + "\":1}"))).isTrue();
    }

    @Test
    void nestingDeeperThanTheLimitIsLeftToTheParser() {
        assertThat(scansWhole(bytes("[".repeat(JsonText.MAX_DEPTH) + "]".repeat(JsonText.MAX_DEPTH)))).isTrue();
        assertThat(scansWhole(bytes("[".repeat(JsonText.MAX_DEPTH + 1) + "]".repeat(JsonText.MAX_DEPTH + 1)))).isFalse();
    }

    @Test
    void countsAreWholeNonNegativeAndShortEnoughForALong() {
        assertThat(countOf("[0]")).isZero();
        assertThat(countOf("[ 42 ]")).isEqualTo(42);
        assertThat(countOf("[999999999999999999]")).isEqualTo(999_999_999_999_999_999L);
        for (String unclear : List.of("[-0]", "[-1]", "[1.0]", "[01]", "[null]", "[\"1\"]", "[1e2]", "[9999999999999999999]")) {
            assertThat(countOf(unclear)).as(unclear).isEqualTo(-1);
        }
    }

    @Test
    void membersSeeTheirNamesAndWhatEarlierMembersNoted() {
        byte[] a = bytes("a");
        byte[] b = bytes("b");
        JsonScan scan = JsonScan.of(Buffer.buffer("{\"a\":{\"b\":1},\"b\":\"x\",\"c\":[]}"));

        int noted = scan.object((s, seen) -> {
            int bit = s.nameIs(a) ? 1 : s.nameIs(b) ? 2 : 4;
            return s.skipValue() ? JsonScan.noteOnce(seen, bit) : -1;
        });

        assertThat(noted).isEqualTo(7);
        assertThat(scan.atEnd()).isTrue();
        assertThat(JsonScan.noteOnce(3, 2)).isEqualTo(-1);
    }

    @Test
    void aBodyStartingWithTheRememberedMembersIsReadOnFromThemWithTheirNotes() {
        byte[] kept = bytes("kept");
        List<Integer> read = new ArrayList<>(); // what each member read was given as noted
        JsonScan.Member member = (s, seen) -> {
            read.add(seen);
            if (s.nameIs(kept)) {
                s.keepsState();
            }
            return s.skipValue() ? seen + 1 : -1;
        };
        ScanPrefix prefix = new ScanPrefix();

        assertThat(JsonScan.of(bytes("{\"id\":\"x\", \"n\":1,\"kept\":2,\"t\":3}")).object(member, prefix)).isEqualTo(4);
        assertThat(prefix.length()).as("up to the member that kept state").isEqualTo("{\"id\":\"x\", \"n\":1,".length());

        read.clear();
        JsonScan same = JsonScan.of(bytes("{\"id\":\"x\", \"n\":1,\"kept\":5,\"u\":[]} "));
        assertThat(same.object(member, prefix)).as("the remembered members' notes count").isEqualTo(4);
        assertThat(same.atEnd()).isTrue();
        assertThat(read).as("only the members after the remembered ones read, with their notes").containsExactly(2, 3);

        read.clear();
        assertThat(JsonScan.of(bytes("{\"id\":\"y\", \"n\":1,\"kept\":5}")).object(member, prefix)).isEqualTo(3);
        assertThat(read).as("a body differing in the remembered bytes is read whole").containsExactly(0, 1, 2);
        assertThat(JsonScan.of(bytes("{\"id\":\"y\", \"n\":1,}")).object(member, prefix))
                .as("what follows the remembered members is still checked").isEqualTo(-1);
        assertThat(JsonScan.of(bytes("{\"kept\":1}")).object(member, prefix)).isEqualTo(1);
        assertThat(prefix.length()).as("nothing plain to remember: the last prefix stays").isEqualTo("{\"id\":\"y\", \"n\":1,".length());
    }

    @Test
    void aBufferNotBackedByAnArrayIsScannedFromACopy() {
        Buffer direct = VertxHooks.buffer(Unpooled.directBuffer().writeBytes(bytes("{\"a\":[1,2]}")));
        JsonScan scan = JsonScan.of(direct);

        assertThat(scan.skipValue() && scan.atEnd()).isTrue();
        assertThat(JsonScan.of(Buffer.buffer())).isNull();
    }

    /** The promise the scan makes: whatever it reads as a whole plain value, the parser reads too. */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void whatTheScanAcceptsTheParserAccepts(@ForAll("jsonish") byte[] body) {
        boolean plain = scansWhole(body);
        Statistics.collect(plain ? "plain" : "left to the parser");
        Statistics.coverage(coverage -> {
            coverage.check("plain").percentage(share -> share > 10);
            coverage.check("left to the parser").percentage(share -> share > 10);
        });
        if (plain) {
            assertThatCode(() -> Json.decodeValue(Buffer.buffer(body))).as(new String(body, StandardCharsets.UTF_8))
                    .doesNotThrowAnyException();
        }
    }

    /** Values built from plain and broken fragments, now and then with a stray byte put in anywhere. */
    @Provide
    Arbitrary<byte[]> jsonish() {
        Arbitrary<String> plainScalar = Arbitraries.of("null", "true", "false", "0", "-7", "12", "\"a\"", "\"é\"",
                "\"\\n\"", "\"\\u00e9\"", " 3 ", "\"😀\"");
        Arbitrary<String> brokenScalar = Arbitraries.of("01", "1.5", "2e3", "-", "\"\\q\"", "\"\\u12\"", "\"\t\"", "tru", "");
        Arbitrary<String> scalar = Arbitraries.frequencyOf(Tuple.of(10, plainScalar), Tuple.of(1, brokenScalar));
        Arbitrary<String> name = Arbitraries.frequencyOf(Tuple.of(10, Arbitraries.of("\"k\"", "\"é\"")),
                Tuple.of(1, Arbitraries.of("k", "\"\\u006b\"")));
        Arbitrary<String> value = Arbitraries.recursive(() -> scalar, inner -> Arbitraries.frequencyOf(
                Tuple.of(4, inner.list().ofMaxSize(3).map(items -> "[" + String.join(",", items) + "]")),
                Tuple.of(1, inner.list().ofMinSize(1).ofMaxSize(2).map(items -> "[" + String.join(",", items) + ",]")),
                Tuple.of(4, Combinators.combine(name, inner).as((key, item) -> "{" + key + ":" + item + "}")),
                Tuple.of(4, Combinators.combine(inner, inner).as((x, y) -> "{\"x\":" + x + " , \"y\" : " + y + "}"))), 3);
        Arbitrary<Integer> strayAt = Arbitraries.integers().between(-200, 40);
        Arbitrary<Integer> stray = Arbitraries.integers().between(0, 255);
        return Combinators.combine(value, strayAt, stray).as((text, at, b) -> {
            byte[] bytes = bytes(text);
            if (at < 0 || at >= bytes.length) {
                return bytes;
            }
            byte[] changed = bytes.clone();
            changed[at] = (byte) (int) b;
            return changed;
        });
    }

    private static boolean scansWhole(byte[] body) {
        JsonScan scan = JsonScan.of(Buffer.buffer(body));
        return scan != null && scan.skipValue() && scan.atEnd();
    }

    private static long countOf(String array) {
        JsonScan scan = JsonScan.of(Buffer.buffer(array));
        long[] count = {-2};
        int elements = scan.array(s -> (count[0] = s.count()) >= 0);
        return elements == 1 ? count[0] : -1;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
