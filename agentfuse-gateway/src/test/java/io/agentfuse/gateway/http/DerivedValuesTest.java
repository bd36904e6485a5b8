package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

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
        assertThat(derived.derive(shared, new java.util.ArrayList<>(), notes -> "turn again")).isEqualTo("turn again");
        assertThat(derived.get(shared)).isEqualTo("turn again");
    }

    @Test
    void aDerivationWithNotesIsNotRemembered() {
        Object shared = remembered("{\"role\":\"user\",\"content\":\"" + "d".repeat(100) + "\"}");
        java.util.List<String> notes = new java.util.ArrayList<>();

        String first = derived.derive(shared, notes, noted -> {
            noted.add("messages[3]: untranslatable");
            return "turn";
        });

        assertThat(first).isEqualTo("turn");
        assertThat(notes).containsExactly("messages[3]: untranslatable");
        assertThat(derived.get(shared)).isNull();
    }

    @Test
    void remembersNothingForAValueNoMemoShares() {
        JsonObject fresh = new JsonObject().put("role", "user").put("content", "b".repeat(100));

        derived.put(fresh, "turn");

        assertThat(ValueMemo.isShared(fresh)).isFalse();
        assertThat(derived.get(fresh)).isNull();
    }

    private Object remembered(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Object value = memo.remember(bytes, 0, bytes.length, bytes.length, new JsonObject(json), false);
        assertThat(ValueMemo.isShared(value)).isTrue();
        return value;
    }
}
