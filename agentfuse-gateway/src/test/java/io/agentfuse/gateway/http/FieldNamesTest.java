package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Short field names decoded again are the same strings, and the table never gives a wrong one. */
class FieldNamesTest {

    @Test
    void aNameDecodedAgainIsTheSameString() {
        JsonObject first = decode("{\"model\":\"a\",\"messages\":[{\"role\":\"user\"}]}");
        JsonObject second = decode("{\"model\":\"b\",\"messages\":[{\"role\":\"tool\"}]}");

        assertThat(keyOf(second, "model")).isSameAs(keyOf(first, "model"));
        assertThat(keyOf(second.getJsonArray("messages").getJsonObject(0), "role"))
                .isSameAs(keyOf(first.getJsonArray("messages").getJsonObject(0), "role"));
    }

    @Test
    void namesThatAreLongOrNotAsciiOrEscapedAreDecodedAsTheyAre() {
        String longName = "n".repeat(FieldNames.MAX_BYTES + 1);
        JsonObject body = decode("{\"" + longName + "\":1,\"caf\u00e9\":2,\"a\\u0062c\":3,\"" + "m".repeat(FieldNames.MAX_BYTES) + "\":4}");

        assertThat(body.fieldNames()).containsExactly(longName, "caf\u00e9", "abc", "m".repeat(FieldNames.MAX_BYTES));
        assertThat(keyOf(decode("{\"" + longName + "\":1}"), longName)).isNotSameAs(keyOf(body, longName));
    }

    @Test
    void namesSharingASlotEachReadAsThemselves() {
        // More names than slots: every slot is taken over many times, and each lookup must still compare bytes.
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5_000; i++) {
                String name = "field" + i;
                byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
                assertThat(FieldNames.of(bytes, 0, bytes.length)).isEqualTo(name);
            }
        }
    }

    @Test
    void threadsTakingOverTheSameSlotsNeverSeeAWrongName() throws Exception {
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> wrong = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                wrong.add(pool.submit(() -> {
                    start.await();
                    int mistakes = 0;
                    for (int i = 0; i < 50_000; i++) {
                        String name = "k" + ((i * 7 + offset) % 3_000);
                        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
                        mistakes += FieldNames.of(bytes, 0, bytes.length).equals(name) ? 0 : 1;
                    }
                    return mistakes;
                }));
            }
            start.countDown();
            for (Future<Integer> mistakes : wrong) {
                assertThat(mistakes.get(60, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static JsonObject decode(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Object value = PlainDecoder.decode(bytes, 0, bytes.length, null);
        assertThat(value).as(json).isInstanceOf(JsonObject.class);
        return (JsonObject) value;
    }

    private static String keyOf(JsonObject object, String name) {
        return object.fieldNames().stream().filter(name::equals).findFirst().orElseThrow();
    }
}
