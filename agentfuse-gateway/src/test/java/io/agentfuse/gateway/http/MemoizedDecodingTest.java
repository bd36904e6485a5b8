package io.agentfuse.gateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Decoding with a {@link ValueMemo} gives what decoding without one gives — values, field spans,
 * repeated keys, errors — on generated long bodies written with every JSON liberty (white space
 * anywhere, escapes, non-ASCII, numbers of every form, repeated keys), and takes remembered values
 * only for the very same bytes.
 */
class MemoizedDecodingTest {

    @Property(tries = 150)
    void decodesAsWithoutAMemoTheFirstTimeAndWhenEverythingIsRemembered(@ForAll("seeds") long seed) {
        String raw = new BodyWriter(new Random(seed)).body(40);
        ValueMemo memo = new ValueMemo(1024, 1 << 22);

        assertSameDecoding(raw, memo);
        assertSameDecoding(raw, memo);
    }

    @Property(tries = 100)
    void aConversationThatGrewFindsItsEarlierMessages(@ForAll("seeds") long seed) {
        BodyWriter writer = new BodyWriter(new Random(seed));
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            messages.add(writer.message());
        }
        // Room for every value: were five of them to share a set of four ways, one would be lost (a miss)
        ValueMemo memo = new ValueMemo(1 << 16, 1 << 22);
        JsonObject turn1 = assertSameDecoding(writer.body(messages.subList(0, 20)), memo);

        JsonObject turn2 = assertSameDecoding(writer.body(messages), memo);

        // Then every message of the first turn that is longer than the memo's window (which reaches
        // past a shorter one into the white space written anew around it) is the very value decoded then
        int found = 0;
        for (int i = 0; i < 20; i++) {
            Object before = turn1.getJsonArray("messages").getValue(i);
            Object after = turn2.getJsonArray("messages").getValue(i);
            if (messages.get(i).getBytes(StandardCharsets.UTF_8).length >= ValueMemo.WINDOW) {
                assertThat(after).isSameAs(before);
                found++;
            }
        }
        assertThat(found).isPositive();
    }

    @Property(tries = 100)
    void messagesAfterANewOneAreStillTheRememberedValues(@ForAll("seeds") long seed) {
        // Given a conversation decoded once
        BodyWriter writer = new BodyWriter(new Random(seed));
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            messages.add(writer.message());
        }
        ValueMemo memo = new ValueMemo(1 << 16, 1 << 22);
        JsonObject before = assertSameDecoding(writer.body(messages), memo);

        // When a new message comes first (an edited history: it is read by a parser of its own, and
        // every later one is looked up again)
        List<String> edited = new ArrayList<>(messages);
        edited.add(0, writer.message());
        JsonObject after = assertSameDecoding(writer.body(edited), memo);

        // Then the messages after it that the memo can find are the very values decoded before
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).getBytes(StandardCharsets.UTF_8).length >= ValueMemo.WINDOW) {
                assertThat(after.getJsonArray("messages").getValue(i + 1))
                        .isSameAs(before.getJsonArray("messages").getValue(i));
            }
        }
    }

    @Property(tries = 50)
    void manyNewMessagesAmongRememberedOnesDecodeAsWithoutAMemo(@ForAll("seeds") long seed) {
        // Given a conversation decoded once, as many agents' conversations meet in one memo
        BodyWriter writer = new BodyWriter(new Random(seed));
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            messages.add(writer.message());
        }
        ValueMemo memo = new ValueMemo(1 << 16, 1 << 22);
        JsonObject before = assertSameDecoding(writer.body(messages), memo);

        // When forty new messages come among them, two before each: more than half the body's
        // parsers, so that the rest of the array is read by one parser
        List<String> mixed = new ArrayList<>();
        for (String message : messages) {
            mixed.add(writer.message());
            mixed.add(writer.message());
            mixed.add(message);
        }
        JsonObject after = assertSameDecoding(writer.body(mixed), memo);

        // Then it decodes as without a memo, and each earlier message the memo can find is the value decoded before
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).getBytes(StandardCharsets.UTF_8).length >= ValueMemo.WINDOW) {
                assertThat(after.getJsonArray("messages").getValue(3 * i + 2))
                        .isSameAs(before.getJsonArray("messages").getValue(i));
            }
        }
    }

    @Property(tries = 200)
    void aBrokenBodyFailsAsWithoutAMemo(@ForAll("seeds") long seed, @ForAll @IntRange(min = 0, max = 3) int damage) {
        Random random = new Random(seed);
        BodyWriter writer = new BodyWriter(random);
        ValueMemo memo = new ValueMemo(1024, 1 << 22);
        String good = writer.body(30);
        decode(good, memo);
        byte[] bytes = good.getBytes(StandardCharsets.UTF_8);
        int at = random.nextInt(bytes.length);
        byte[] broken = switch (damage) {
            case 0 -> Arrays.copyOf(bytes, at);                      // cut short
            case 1 -> replaced(bytes, at, (byte) "{}[]\",:\\x1-".charAt(random.nextInt(11)));
            case 2 -> concat(bytes, " {}".getBytes(StandardCharsets.US_ASCII));   // trailing content
            default -> replaced(bytes, at, (byte) 0x01);                        // a control char
        };
        Buffer body = Buffer.buffer(broken);

        Throwable plain = catchThrowable(() -> StrictJson.decode(body, new StrictJson.FieldSpans()));
        Throwable memoized = catchThrowable(() -> StrictJson.decode(body, new StrictJson.FieldSpans(), memo));

        if (plain == null) {
            assertSameDecoding(new String(broken, StandardCharsets.UTF_8), memo);
        } else {
            assertThat(memoized).isInstanceOf(DecodeException.class).hasMessage(plain.getMessage());
        }
    }

    @Test
    void threadsSharingOneMemoEachGetWhatDecodingGives() throws Exception {
        // Given eight conversations that share their first messages, and a memo too small for all of them
        BodyWriter writer = new BodyWriter(new Random(42));
        List<String> shared = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            shared.add(writer.message());
        }
        List<String> bodies = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        for (int b = 0; b < 8; b++) {
            List<String> messages = new ArrayList<>(shared);
            for (int i = 0; i < 10; i++) {
                messages.add(writer.message());
            }
            String body = writer.body(messages);
            bodies.add(body);
            expected.add(StrictJson.decode(Buffer.buffer(body)));
        }
        ValueMemo memo = new ValueMemo(64, 64 * 1024);

        // When eight threads, started together, each decode every body fifty times through it
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    start.await();
                    int checked = 0;
                    for (int round = 0; round < 50; round++) {
                        for (int b = 0; b < bodies.size(); b++) {
                            int which = (b + offset) % bodies.size();
                            Object decoded = StrictJson.decode(Buffer.buffer(bodies.get(which)),
                                    new StrictJson.FieldSpans(), memo);
                            assertThat(decoded).isEqualTo(expected.get(which));
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();

            // Then every decode was what the ordinary decoder gives, and the memo stayed in its bounds
            for (Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(50 * bodies.size());
            }
            assertThat(memo.bytesHeld()).isLessThanOrEqualTo(64 * 1024);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNameLongerThanTheParserTakesFailsAsWithoutAMemo() {
        String raw = "{\"model\":\"m\",\"" + "n".repeat(60_000) + "\":1}";
        Buffer body = Buffer.buffer(raw);

        Throwable plain = catchThrowable(() -> StrictJson.decode(body, new StrictJson.FieldSpans()));
        Throwable memoized = catchThrowable(() -> StrictJson.decode(body, new StrictJson.FieldSpans(),
                new ValueMemo(64, 1 << 20)));

        assertThat(plain).isInstanceOf(DecodeException.class);
        assertThat(memoized).isInstanceOf(DecodeException.class).hasMessage(plain.getMessage());
    }

    @Test
    void aBodyOfManyNumbersIsDecodedAsWithoutAMemo() {
        StringBuilder raw = new StringBuilder("{\"model\":\"m\"");
        for (int i = 0; i < 10_000; i++) {
            raw.append(",\"n").append(i).append("\":").append(i).append(".5");
        }

        assertSameDecoding(raw.append('}').toString(), new ValueMemo(64, 1 << 20));
    }

    @Test
    void aBodyOfThousandsOfFieldsGivesUpOnTheMemoAfterSixtyFourParsers() {
        // Given a thousand top-level strings of 100 bytes, each one the memo would remember
        StringBuilder raw = new StringBuilder("{\"model\":\"m\"");
        for (int i = 0; i < 1_000; i++) {
            raw.append(",\"s").append(i).append("\":\"").append(String.format("%04d", i)).append("z".repeat(96)).append('"');
        }
        ValueMemo memo = new ValueMemo(4_096, 1 << 24);

        // When it is decoded
        assertSameDecoding(raw.append('}').toString(), memo);

        // Then only the values parsed before the memo path gave up were remembered, not a thousand
        assertThat(memo.bytesHeld()).isPositive().isLessThanOrEqualTo(64 * 102);
    }

    @Test
    void aValueIsTakenOnlyForAllOfItsBytesNotForTheSameStart() {
        ValueMemo memo = new ValueMemo(64, 1 << 20);
        String text = "x".repeat(100);
        String first = "{\"role\":\"user\",\"content\":\"" + text + "\"}";
        byte[] bytes = first.getBytes(StandardCharsets.UTF_8);
        memo.remember(bytes, 0, bytes.length, bytes.length, new JsonObject(first), false);

        byte[] other = ("{\"role\":\"user\",\"content\":\"" + text + "y\"}").getBytes(StandardCharsets.UTF_8);

        assertThat(memo.find(bytes, 0, bytes.length)).isNotNull();
        assertThat(memo.find(other, 0, other.length)).isNull();
        assertThat(memo.find(bytes, 0, bytes.length - 1)).isNull();
    }

    @Test
    void rememberedValuesCannotBeChangedByTheRequestsThatShareThem() {
        JsonObject shared = rememberedMessage("y".repeat(80));

        assertThatThrownBy(() -> shared.put("role", "assistant")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> shared.getJsonArray("content").add("more"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> shared.getJsonArray("content").getJsonObject(0).remove("text"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(shared.copy().put("role", "assistant").getString("role")).isEqualTo("assistant");
        Map<String, Object> fields = shared.getMap();
        assertThatThrownBy(fields::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> fields.keySet().remove("role")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> fields.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> fields.replaceAll((name, value) -> value)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> fields.computeIfAbsent("name", name -> "x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(fields).containsOnlyKeys("role", "content");
    }

    @Test
    void rememberedObjectsEqualWhatTheirBytesDecodeTo() {
        JsonObject shared = rememberedMessage("q".repeat(80));
        String raw = messageJson("q".repeat(80));

        assertThat(shared).isEqualTo(new JsonObject(raw)).hasSameHashCodeAs(new JsonObject(raw));
        assertThat(new JsonObject(raw)).isEqualTo(shared);
        assertThat(shared.encode()).isEqualTo(raw);
        assertThat(shared.fieldNames()).containsExactly("role", "content");
    }

    @Test
    void holdsNoMoreBytesThanItMay() {
        ValueMemo memo = new ValueMemo(4096, 64 * 1024);
        for (int i = 0; i < 2000; i++) {
            String raw = "\"" + i + "z".repeat(200 + i % 500) + "\"";
            byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
            memo.remember(bytes, 0, bytes.length, bytes.length, raw, false);

            assertThat(memo.bytesHeld()).isLessThanOrEqualTo(64 * 1024);
        }
        assertThat(memo.bytesHeld()).isGreaterThan(32 * 1024);
    }

    @Test
    void aRepeatedKeyInsideARememberedValueIsReportedEveryTime() {
        ValueMemo memo = new ValueMemo(64, 1 << 20);
        String raw = "{\"model\":\"m\",\"pad\":\"" + "p".repeat(9000) + "\",\"messages\":[{\"role\":\"user\",\"role\":\"user\","
                + "\"content\":\"" + "q".repeat(100) + "\"}]}";
        for (int i = 0; i < 2; i++) {
            StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
            StrictJson.decode(Buffer.buffer(raw), spans, memo);
            assertThat(spans.repeatedKey()).isTrue();
        }
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    private static JsonObject assertSameDecoding(String raw, ValueMemo memo) {
        Buffer body = Buffer.buffer(raw);
        StrictJson.FieldSpans plainSpans = new StrictJson.FieldSpans();
        Object plain = StrictJson.decode(body, plainSpans);
        StrictJson.FieldSpans memoSpans = new StrictJson.FieldSpans();

        Object memoized = StrictJson.decode(body, memoSpans, memo);

        assertThat(memoized).isEqualTo(plain);
        assertThat(memoSpans.repeatedKey()).isEqualTo(plainSpans.repeatedKey());
        assertThat(memoSpans.size()).isEqualTo(plainSpans.size());
        for (String field : ((JsonObject) plain).fieldNames()) {
            assertThat(memoSpans.of(field)).as(field).containsExactly(plainSpans.of(field));
        }
        return (JsonObject) memoized;
    }

    private static void decode(String raw, ValueMemo memo) {
        StrictJson.decode(Buffer.buffer(raw), new StrictJson.FieldSpans(), memo);
    }

    private static byte[] replaced(byte[] bytes, int at, byte with) {
        byte[] copy = bytes.clone();
        copy[at] = with;
        return copy;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** Writes long request bodies by hand, so that they use the liberties an encoder would not. */
    private static final class BodyWriter {
        private static final String[] PIECES = {"a", "Z", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "é", "€",
            "\\ud83d\\ude00", "😀", "\\t", "{", "]", ",", ":", "'", "0", "\\u0000"};
        private final Random random;

        BodyWriter(Random random) {
            this.random = random;
        }

        String body(int messages) {
            List<String> written = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                written.add(message());
            }
            return body(written);
        }

        String body(List<String> messages) {
            StringBuilder body = new StringBuilder(space()).append('{').append(space());
            List<String> fields = new ArrayList<>();
            fields.add(field("model", string(5)));
            fields.add(field("messages", space() + "[" + space() + String.join(space() + "," + space(), messages)
                    + space() + "]"));
            fields.add(field("temperature", number()));
            fields.add(field("stream", random.nextBoolean() ? "true" : "false"));
            fields.add(field("tools", "[" + object(2) + "," + space() + object(2) + "]"));
            fields.add(field("metadata", random.nextBoolean() ? "null" : object(2)));
            fields.add(field("system", string(random.nextInt(200))));
            fields.add(field("empty", random.nextBoolean() ? "[]" : "{ }"));
            fields.add(field("pad", string(8200)));
            if (random.nextInt(8) == 0) {
                fields.add(field("model", string(3)));                 // a repeated top-level key
            }
            Collections.shuffle(fields, random);
            return body.append(String.join("," + space(), fields)).append(space()).append('}').append(space()).toString();
        }

        String message() {
            String content = random.nextInt(3) == 0
                    ? "[" + "{\"type\":\"text\"," + space() + "\"text\":" + string(random.nextInt(400)) + "}]"
                    : string(random.nextInt(300));
            String repeated = random.nextInt(20) == 0 ? ",\"role\":\"user\"" : "";
            return "{" + space() + "\"role\"" + space() + ":" + space() + "\"user\"" + repeated + "," + space()
                    + "\"content\":" + space() + content + "," + "\"n\":" + number() + space() + "}";
        }

        private String field(String name, String value) {
            return "\"" + name + "\"" + space() + ":" + space() + value;
        }

        private String object(int depth) {
            if (depth == 0) {
                return string(random.nextInt(20));
            }
            return "{\"a\":" + object(depth - 1) + ",\"b\":[" + number() + "," + space() + object(depth - 1)
                    + "],\"c\":" + string(random.nextInt(90)) + "}";
        }

        private String string(int pieces) {
            StringBuilder text = new StringBuilder("\"");
            for (int i = 0; i < pieces; i++) {
                String piece = PIECES[random.nextInt(PIECES.length)];
                text.append(piece.equals("{") || piece.equals("]") || piece.equals(",") || piece.equals(":")
                        ? piece : piece.repeat(1 + random.nextInt(3)));
            }
            return text.append('"').toString();
        }

        private String number() {
            return switch (random.nextInt(6)) {
                case 0 -> Integer.toString(random.nextInt());
                case 1 -> "-0.5e-3";
                case 2 -> "1E2";
                case 3 -> "12345678901234567890";
                case 4 -> "0";
                default -> Double.toString(random.nextDouble());
            };
        }

        private String space() {
            return switch (random.nextInt(6)) {
                case 0 -> " ";
                case 1 -> "\n\t ";
                case 2 -> "\r\n";
                default -> "";
            };
        }
    }

    /** A user message of one text part, as a memo hands it out once remembered. */
    private static JsonObject rememberedMessage(String text) {
        ValueMemo memo = new ValueMemo(64, 1 << 20);
        byte[] bytes = messageJson(text).getBytes(StandardCharsets.UTF_8);
        memo.remember(bytes, 0, bytes.length, bytes.length, new JsonObject(messageJson(text)), false);
        return (JsonObject) memo.find(bytes, 0, bytes.length).value();
    }

    private static String messageJson(String text) {
        return "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}";
    }
}
