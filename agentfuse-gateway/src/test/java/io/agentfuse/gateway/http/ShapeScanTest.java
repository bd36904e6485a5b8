package io.agentfuse.gateway.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** How the scan finds a member's field: among the shape's fields of the member name's length. */
class ShapeScanTest {

    private static final int INDEX = 0;
    private static final int DELTA = 1;
    private static final int ID = 2;

    // "index" and "delta" share a length; "id" is shorter, "unlisted" longer than any field but "function".
    private static final JsonShape.Obj SHAPE = JsonShape.object(
            JsonShape.required("index", JsonShape.Leaf.NUMBER).captured(INDEX),
            JsonShape.optional("delta", JsonShape.Leaf.STRING).captured(DELTA),
            JsonShape.optional("id", JsonShape.Leaf.STRING).captured(ID),
            JsonShape.optional("function", JsonShape.Leaf.ANY));

    @Test
    void fieldsOfTheSameNameLengthAreEachFound() {
        Map<Integer, Object> captured = new TreeMap<>();

        boolean plain = scan("{\"delta\":\"hi\",\"index\":3,\"id\":\"a\"}", captured);

        assertThat(plain).isTrue();
        assertThat(captured).containsExactlyEntriesOf(new TreeMap<>(Map.of(INDEX, 3L, DELTA, "hi", ID, "a")));
    }

    @Test
    void membersNamedLikeNoFieldAreSkippedWhateverTheirLength() {
        Map<Integer, Object> captured = new TreeMap<>();

        boolean plain = scan("{\"indey\":[1],\"unlisted\":{\"index\":9},\"i\":1,\"a_much_longer_name_than_any\":\"x\","
                + "\"\":0,\"index\":4}", captured);

        assertThat(plain).isTrue();
        assertThat(captured).containsExactlyEntriesOf(Map.of(INDEX, 4L));
    }

    @Test
    void aRequiredFieldAbsentOrAFieldGivenTwiceIsLeftToTheTree() {
        assertThat(scan("{\"delta\":\"hi\"}", new TreeMap<>())).isFalse();
        assertThat(scan("{\"index\":1,\"delta\":\"a\",\"delta\":\"b\"}", new TreeMap<>())).isFalse();
        assertThat(scan("{\"index\":1,\"index\":1}", new TreeMap<>())).isFalse();
    }

    private static boolean scan(String body, Map<Integer, Object> captured) {
        return ShapeScan.matches(JsonScan.of(body.getBytes(StandardCharsets.UTF_8)), SHAPE, new ShapeScan.Captures() {
            @Override
            public void count(int slot, long value) {
                captured.put(slot, value);
            }

            @Override
            public void string(int slot, String value) {
                captured.put(slot, value);
            }
        });
    }
}
