package io.agentfuse.gateway.http;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A small body decoded without the parser gives what the parser gives — values of the same types,
 * field spans, repeated keys — and anything it does not read plainly goes to the parser, whose
 * error it then is: on generated bodies written with every JSON liberty, whole and damaged.
 */
class PlainDecoderTest {

    @Test
    void aSmallChatRequestIsDecodedWithoutTheParser() {
        byte[] body = bytes("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\\n\\u00e9 \u00e9\"}],"
                + "\"temperature\":0.2,\"max_tokens\":512,\"stream\":false,\"stop\":null}");
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();

        Object value = PlainDecoder.decode(body, 0, body.length, spans);

        assertThat(value).isInstanceOf(JsonObject.class);
        JsonObject request = (JsonObject) value;
        assertThat(request.getJsonArray("messages").getJsonObject(0).getString("content")).isEqualTo("hi\n\u00e9 \u00e9");
        assertThat(request.getValue("temperature")).isEqualTo(0.2);
        assertThat(request.getValue("max_tokens")).isEqualTo(512);
        assertThat(spans.of("model")).containsExactly(1, 23); // to the next name: the comma is its field's
        assertThatDecodesAsTheParser(new String(body, StandardCharsets.UTF_8));
    }

    @Test
    void numbersHaveTheParsersTypes() {
        List<String> readPlainly = List.of("0", "-0", "7", "-7", "2147483647", "2147483648", "-2147483648",
                "-2147483649", "123456789012345678", "-123456789012345678", "0.5", "-0.0", "1e5", "1E-3", "-2.5e+2",
                "1e308", "4.9e-324", "1e-400", "0.1000000000000000055511151231257827");
        List<String> leftToTheParser = List.of("1234567890123456789", "99999999999999999999", "1e999", "-1e999",
                "1" + "0".repeat(70) + ".5");
        for (String number : readPlainly) {
            byte[] body = bytes("{\"n\":" + number + ",\"a\":[" + number + "]}");
            assertThat(PlainDecoder.decode(body, 0, body.length, null)).as(number).isNotSameAs(PlainDecoder.NOT_PLAIN);
            assertThatDecodesAsTheParser(Buffer.buffer(body));
        }
        for (String number : leftToTheParser) {
            byte[] body = bytes("{\"n\":" + number + "}");
            assertThat(PlainDecoder.decode(body, 0, body.length, null)).as(number).isSameAs(PlainDecoder.NOT_PLAIN);
            assertThatDecodesAsTheParser(Buffer.buffer(body));
        }
    }

    @Test
    void whatIsNotPlainIsLeftToTheParserWhichWordsTheError() {
        for (String body : List.of("", " ", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "[1 2]", "01", "1.", ".5",
                "-", "1e", "+1", "tru", "truex", "nul", "\"\\x\"", "\"\\u12g4\"", "\"\\u12\"", "\"a\tb\"", "\"open",
                "{} {}", "[]]", "\uFEFF{}", "{\"a\":1}x", "[" + "[".repeat(300) + "]".repeat(300) + "]", "NaN",
                "[Infinity]", "{'a':1}", "{\"a\" 1}", "\"\u0000\"")) {
            assertThatDecodesAsTheParser(body);
        }
    }

    @Test
    void malformedUtf8IsLeftToTheParser() {
        for (byte[] string : List.of(new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xE2, (byte) 0x82}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80})) {
            byte[] body = concat(bytes("{\"a\":\"x"), string, bytes("\"}"));
            assertThat(PlainDecoder.decode(body, 0, body.length, null)).isSameAs(PlainDecoder.NOT_PLAIN);
            assertThatDecodesAsTheParser(Buffer.buffer(body));
        }
    }

    @Test
    void aBodyInTheMiddleOfALargerArrayIsReadFromItsOwnStart() {
        // Given a body whose bytes sit at an offset of a shared array (a slice of what the socket read)
        byte[] all = bytes("xxxx{\"model\":\"m\", \"n\":[1,2]}yyyy");
        Buffer body = VertxHooks.buffer(Unpooled.wrappedBuffer(all).slice(4, all.length - 8));

        // Then its spans count from its own start, as the parser's do
        assertThatDecodesAsTheParser(body);
    }

    @Property(tries = 300)
    void generatedBodiesDecodeAsTheParserDecodesThem(@ForAll("seeds") long seed) {
        String body = new SmallBodyWriter(new Random(seed)).body();

        assertThatDecodesAsTheParser(body);
    }

    @Property(tries = 300)
    void damagedBodiesFailAsTheParserFails(@ForAll("seeds") long seed, @ForAll @IntRange(min = 0, max = 4) int damage) {
        Random random = new Random(seed);
        byte[] good = bytes(new SmallBodyWriter(random).body());
        int at = random.nextInt(good.length);
        byte[] broken = switch (damage) {
            case 0 -> Arrays.copyOf(good, at);
            case 1 -> replaced(good, at, (byte) "{}[]\",:\\x1-.eE+u".charAt(random.nextInt(16)));
            case 2 -> concat(good, bytes(" ,"));
            case 3 -> replaced(good, at, (byte) (random.nextInt(32)));
            default -> replaced(good, at, (byte) (0x80 + random.nextInt(128)));
        };

        assertThatDecodesAsTheParser(Buffer.buffer(broken));
    }

    @Test
    void mostGeneratedBodiesAreDecodedWithoutTheParser() {
        // The properties above prove nothing about the plain path if it always gave up
        int plainly = 0;
        for (long seed = 0; seed < 200; seed++) {
            byte[] body = bytes(new SmallBodyWriter(new Random(seed)).body());
            if (PlainDecoder.decode(body, 0, body.length, new StrictJson.FieldSpans()) != PlainDecoder.NOT_PLAIN) {
                plainly++;
            }
        }
        assertThat(plainly).isGreaterThan(100); // the rest hold a number the parser reads (1e999, 20 digits)
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    private static void assertThatDecodesAsTheParser(String body) {
        assertThatDecodesAsTheParser(Buffer.buffer(body));
    }

    private static void assertThatDecodesAsTheParser(Buffer body) {
        StrictJson.FieldSpans parserSpans = new StrictJson.FieldSpans();
        Throwable parserFailure = null;
        Object parsed = null;
        try {
            parsed = StrictJson.parse(body, parserSpans);
        } catch (DecodeException e) {
            parserFailure = e;
        }
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        Object[] decoded = new Object[1];
        Throwable failure = catchThrowable(() -> decoded[0] = StrictJson.decode(body, spans));

        if (parserFailure != null) {
            assertThat(failure).as(body.toString()).isInstanceOf(DecodeException.class).hasMessage(parserFailure.getMessage());
            return;
        }
        assertThat(failure).as(body.toString()).isNull();
        assertThat(typed(decoded[0])).as(body.toString()).isEqualTo(typed(parsed));
        assertThat(spans.repeatedKey()).isEqualTo(parserSpans.repeatedKey());
        assertThat(spans.size()).isEqualTo(parserSpans.size());
        if (parsed instanceof JsonObject object) {
            for (String field : object.fieldNames()) {
                assertThat(spans.of(field)).as(field).containsExactly(parserSpans.of(field));
            }
        }
    }

    /** The value written out with the type of every number, so that 1 and 1L and 1.0 differ. */
    private static String typed(Object value) {
        if (value instanceof JsonObject object) {
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<String, Object> member : object) {
                out.append(member.getKey()).append('=').append(typed(member.getValue())).append(';');
            }
            return out.append('}').toString();
        }
        if (value instanceof JsonArray array) {
            List<String> elements = new ArrayList<>();
            array.forEach(element -> elements.add(typed(element)));
            return elements.toString();
        }
        return value == null ? "null" : value.getClass().getSimpleName() + ":" + value;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] replaced(byte[] bytes, int at, byte with) {
        byte[] copy = bytes.clone();
        copy[at] = with;
        return copy;
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] joined = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, joined, at, part.length);
            at += part.length;
        }
        return joined;
    }

    /** Writes small bodies by hand, with the liberties an encoder would not take. */
    private static final class SmallBodyWriter {
        private static final String[] PIECES = {"a", "Z", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "é", "€",
            "\\ud83d\\ude00", "😀", "\\t", "\\b\\f\\r", "\\uD800", "{", "]", ",", ":", "'", "0", "\\u0000", "\u007f"};
        private static final String[] NUMBERS = {"0", "-0", "42", "-17", "2147483647", "2147483648", "-2147483649",
            "123456789012345678", "12345678901234567890", "0.5", "-0.0", "3.25e2", "1E-3", "6.02e+23", "1e999"};
        private static final String[] SPACES = {"", "", "", " ", "\n", "\t", "\r\n  "};
        private final Random random;

        SmallBodyWriter(Random random) {
            this.random = random;
        }

        String body() {
            StringBuilder body = new StringBuilder(space()).append('{');
            int fields = 1 + random.nextInt(6);
            for (int i = 0; i < fields; i++) {
                String name = random.nextInt(10) == 0 ? "model" : random.nextInt(12) == 0 ? string(2) : "\"f" + random.nextInt(8) + "\"";
                body.append(i == 0 ? space() : "," + space()).append(name).append(space()).append(':').append(space())
                        .append(value(3));
            }
            return body.append(space()).append('}').append(space()).toString();
        }

        private String value(int depth) {
            int kind = random.nextInt(depth == 0 ? 4 : 6);
            return switch (kind) {
                case 0 -> string(random.nextInt(12));
                case 1 -> NUMBERS[random.nextInt(NUMBERS.length)];
                case 2 -> new String[] {"true", "false", "null"}[random.nextInt(3)];
                case 3 -> random.nextBoolean() ? "[]" : "{" + space() + "}";
                case 4 -> {
                    StringBuilder array = new StringBuilder("[").append(space());
                    int elements = 1 + random.nextInt(4);
                    for (int i = 0; i < elements; i++) {
                        array.append(i == 0 ? "" : "," + space()).append(value(depth - 1)).append(space());
                    }
                    yield array.append(']').toString();
                }
                default -> {
                    StringBuilder object = new StringBuilder("{");
                    int members = 1 + random.nextInt(4);
                    for (int i = 0; i < members; i++) {
                        object.append(i == 0 ? space() : "," + space()).append("\"k").append(random.nextInt(3)).append('"')
                                .append(space()).append(':').append(space()).append(value(depth - 1));
                    }
                    yield object.append(space()).append('}').toString();
                }
            };
        }

        private String string(int pieces) {
            StringBuilder text = new StringBuilder("\"");
            for (int i = 0; i < pieces; i++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            return text.append('"').toString();
        }

        private String space() {
            return SPACES[random.nextInt(SPACES.length)];
        }
    }
}
