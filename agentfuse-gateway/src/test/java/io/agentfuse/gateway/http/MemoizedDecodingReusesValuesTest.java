package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.agentfuse.gateway.http.SameDecoding.assertSameDecoding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@link ValueMemo} hands out the values it remembered for the very same bytes only: a conversation
 * that grew, or was edited, finds its earlier messages again as the very values decoded then; the
 * shared values cannot be changed by the requests that share them; and the memo holds no more bytes than it may.
 */
class MemoizedDecodingReusesValuesTest {

    @Property(tries = 100)
    void aConversationThatGrewFindsItsEarlierMessages(@ForAll("seeds") long seed) {
        BodyWriter writer = new BodyWriter(new Random(seed));
        List<String> messages = writer.messages(30);
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
            if (reachesTheWindow(messages.get(i))) {
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
        List<String> messages = writer.messages(20);
        ValueMemo memo = new ValueMemo(1 << 16, 1 << 22);
        JsonObject before = assertSameDecoding(writer.body(messages), memo);

        // When a new message comes first (an edited history: it is read by a parser of its own, and
        // every later one is looked up again)
        List<String> edited = new ArrayList<>(messages);
        edited.add(0, writer.message());
        JsonObject after = assertSameDecoding(writer.body(edited), memo);

        // Then the messages after it that the memo can find are the very values decoded before
        for (int i = 0; i < messages.size(); i++) {
            if (reachesTheWindow(messages.get(i))) {
                assertThat(after.getJsonArray("messages").getValue(i + 1))
                        .isSameAs(before.getJsonArray("messages").getValue(i));
            }
        }
    }

    @Property(tries = 50)
    void manyNewMessagesAmongRememberedOnesDecodeAsWithoutAMemo(@ForAll("seeds") long seed) {
        // Given a conversation decoded once, as many agents' conversations meet in one memo
        BodyWriter writer = new BodyWriter(new Random(seed));
        List<String> messages = writer.messages(20);
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
            if (reachesTheWindow(messages.get(i))) {
                assertThat(after.getJsonArray("messages").getValue(3 * i + 2))
                        .isSameAs(before.getJsonArray("messages").getValue(i));
            }
        }
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

    /**
     * Whether the memo can find {@code message} again: only a message longer than its window, which for
     * a shorter one reaches past it into the white space written anew around it.
     */
    private static boolean reachesTheWindow(String message) {
        return message.getBytes(StandardCharsets.UTF_8).length >= ValueMemo.WINDOW;
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
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
