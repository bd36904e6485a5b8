package io.agentfuse.gateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
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
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.http.SameDecoding.assertSameDecoding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Decoding with a {@link ValueMemo} gives what decoding without one gives — values, field spans,
 * repeated keys, errors — on generated long bodies written with every JSON liberty (white space
 * anywhere, escapes, non-ASCII, numbers of every form, repeated keys, {@link BodyWriter}), on broken
 * bodies, on bodies at the parser's limits, and with threads sharing one memo.
 */
class MemoizedDecodingMatchesPlainTest {

    @Property(tries = 150)
    void decodesAsWithoutAMemoTheFirstTimeAndWhenEverythingIsRemembered(@ForAll("seeds") long seed) {
        String raw = new BodyWriter(new Random(seed)).body(40);
        ValueMemo memo = new ValueMemo(1024, 1 << 22);

        assertSameDecoding(raw, memo);
        assertSameDecoding(raw, memo);
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
        List<String> shared = writer.messages(20);
        List<String> bodies = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        for (int b = 0; b < 8; b++) {
            List<String> messages = new ArrayList<>(shared);
            messages.addAll(writer.messages(10));
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
}
