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

class DerivedValuesTest {

    private final ValueMemo memo = new ValueMemo(64, 1 << 20);
    private final DerivedValues<String> derived = new DerivedValues<>();

    @Test
    void answersForTheVeryValueTheMemoShares() {
        // Given a value the memo hands out, with something derived from it
        Object shared = remembered("{\"role\":\"user\",\"content\":\"" + "a".repeat(100) + "\"}");
        derived.put(shared, "turn");

        // Then the very value finds it, an equal copy does not
        assertThat(derived.get(shared)).isEqualTo("turn");
        assertThat(derived.get(((JsonObject) shared).copy())).isNull();
    }

    @Test
    void eachDerivationIsItsOwnersAlone() {
        // Given a shared value two parsers derive from in turn
        Object shared = remembered("{\"role\":\"user\",\"content\":\"" + "c".repeat(100) + "\"}");
        DerivedValues<String> other = new DerivedValues<>();
        derived.put(shared, "turn");
        other.put(shared, "message");

        // Then neither is handed the other's: the one overwritten derives again
        assertThat(other.get(shared)).isEqualTo("message");
        assertThat(derived.get(shared)).isNull();
        assertThat(derived.derive(shared, new ArrayList<>(), notes -> "turn again")).isEqualTo("turn again");
        assertThat(derived.get(shared)).isEqualTo("turn again");
    }

    @Test
    void parsersDerivingFromTheSameObjectsAtOnceAreNeverHandedEachOthersValues() throws Exception {
        // Given shared messages two parsers derive from at once, on many threads (an OpenAI and an
        // Anthropic caller resending the same bytes): the slot is written racily
        List<Object> shared = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            shared.add(remembered("{\"role\":\"user\",\"content\":\"" + i + "e".repeat(100) + "\"}"));
        }
        DerivedValues<Integer> numbers = new DerivedValues<>();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<String>>> wrong = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                boolean strings = t % 2 == 0;
                wrong.add(pool.submit(() -> {
                    start.await();
                    List<String> seen = new ArrayList<>();
                    for (int round = 0; round < 20_000; round++) {
                        int i = round % shared.size();
                        Object value = strings ? derived.derive(shared.get(i), new ArrayList<>(), notes -> "turn " + i)
                                : numbers.derive(shared.get(i), new ArrayList<>(), notes -> i);
                        if (!value.equals(strings ? "turn " + i : (Object) i)) {
                            seen.add(i + " -> " + value);
                        }
                    }
                    return seen;
                }));
            }
            start.countDown();

            // Then each got what it derived itself, for the very object, every time
            for (Future<List<String>> each : wrong) {
                assertThat(each.get(60, TimeUnit.SECONDS)).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDerivationWithNotesIsNotRemembered() {
        Object shared = remembered("{\"role\":\"user\",\"content\":\"" + "d".repeat(100) + "\"}");
        List<String> notes = new ArrayList<>();

        String first = derived.derive(shared, notes, noted -> {
            noted.add("messages[3]: untranslatable");
            return "turn";
        });

        assertThat(first).isEqualTo("turn");
        assertThat(notes).containsExactly("messages[3]: untranslatable");
        assertThat(derived.get(shared)).isNull();
    }

    @Test
    void remembersNothingForAValueTheGatewayDidNotDecode() {
        JsonObject built = new JsonObject().put("role", "user").put("content", "b".repeat(100));

        derived.put(built, "turn");

        assertThat(derived.get(built)).isNull();
    }

    private Object remembered(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Object value = memo.remember(bytes, 0, bytes.length, bytes.length, new JsonObject(json), false);
        assertThat(memo.find(bytes, 0, bytes.length)).isNotNull();
        return value;
    }
}
