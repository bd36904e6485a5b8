package io.agentfuse.gateway.http;

import io.vertx.core.json.JsonObject;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values that start alike — an agent's tool answers opening with the same sentence, a reminder
 * heading many messages — are all found again, however many share their first bytes, and a value is
 * still taken only for all of its bytes.
 */
class ValueMemoCrowdTest {

    @Test
    void manyValuesThatStartAlikeAreAllFoundAgain() {
        ValueMemo memo = new ValueMemo(1 << 14, 1 << 24);
        String opening = "The cache is read before the lock is taken, so a writer that comes in between ".repeat(5);
        List<byte[]> answers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            answers.add(message(opening + "leaves answer " + i + " stale until the next turn."));
        }
        answers.forEach(bytes -> remember(memo, bytes));

        for (byte[] bytes : answers) {
            assertFoundAsItself(memo, bytes);
        }
    }

    @Test
    void crowdsInsideCrowdsAreFound() {
        ValueMemo memo = new ValueMemo(1 << 14, 1 << 24);
        List<byte[]> values = new ArrayList<>();
        for (int group = 0; group < 12; group++) {
            String shared = "<system-reminder>" + "r".repeat(300) + " group " + group + " " + "s".repeat(1500);
            for (int member = 0; member < 12; member++) {
                values.add(message(shared + " member " + member + " " + "t".repeat(member * 40)));
                values.add(message(shared + " member " + member + " " + "t".repeat(member * 40) + "!"));
            }
        }
        values.forEach(bytes -> remember(memo, bytes));

        for (byte[] bytes : values) {
            assertFoundAsItself(memo, bytes);
        }
    }

    @Test
    void aValueInACrowdIsTakenOnlyForAllOfItsBytes() {
        ValueMemo memo = new ValueMemo(1 << 10, 1 << 22);
        String opening = "x".repeat(500);
        for (int i = 0; i < 20; i++) {
            remember(memo, message(opening + i));
        }
        byte[] stranger = message(opening + "stranger");
        byte[] shorter = message(opening + "1");
        byte[] known = message(opening + "12");

        assertThat(memo.find(stranger, 0, stranger.length)).isNull();
        assertThat(memo.find(known, 0, known.length - 1)).isNull();
        assertFoundAsItself(memo, shorter);
        byte[] followed = (new String(known, StandardCharsets.UTF_8) + ",{\"role\":\"user\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(memo.find(followed, 0, followed.length).value()).isEqualTo(new JsonObject(new String(known, StandardCharsets.UTF_8)));
    }

    @Test
    void valuesAlikeBeyondTheDeepestWindowShareASetAndStayExact() {
        ValueMemo memo = new ValueMemo(1 << 12, 1 << 24);
        String opening = "w".repeat(ValueMemo.DEEPEST + 100);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            values.add(message(opening + i));
        }
        values.forEach(bytes -> remember(memo, bytes));

        int found = 0;
        for (byte[] bytes : values) {
            ValueMemo.Remembered known = memo.find(bytes, 0, bytes.length);
            if (known != null) {
                found++;
                assertThat(known.value()).isEqualTo(new JsonObject(new String(bytes, StandardCharsets.UTF_8)));
            }
        }
        assertThat(found).isBetween(1, 4);
    }

    @Property(tries = 60)
    void whatIsFoundIsAlwaysTheValueOfTheBytesAtHand(@ForAll long seed, @ForAll @IntRange(min = 8, max = 512) int capacity) {
        Random random = new Random(seed);
        ValueMemo memo = new ValueMemo(capacity, 1 << 20);
        List<String> openings = List.of("a".repeat(130), "a".repeat(129) + "b", "c".repeat(900), "c".repeat(2000), "d".repeat(64));
        List<byte[]> seen = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            byte[] bytes = random.nextInt(4) == 0 && !seen.isEmpty()
                    ? seen.get(random.nextInt(seen.size()))
                    : message(openings.get(random.nextInt(openings.size())) + "z".repeat(random.nextInt(3000)) + random.nextInt(50));
            ValueMemo.Remembered found = memo.find(bytes, 0, bytes.length);
            if (found == null) {
                remember(memo, bytes);
                seen.add(bytes);
            } else {
                assertThat(found.length()).isEqualTo(bytes.length);
                assertThat(found.value()).isEqualTo(new JsonObject(new String(bytes, StandardCharsets.UTF_8)));
            }
            assertThat(memo.bytesHeld()).isLessThanOrEqualTo(1 << 20);
        }
    }

    @Test
    void theSameValueRememberedTwiceIsHeldOnce() {
        ValueMemo memo = new ValueMemo(1 << 10, 1 << 22);
        String opening = "y".repeat(400);
        remember(memo, message(opening + "one"));
        byte[] twice = message(opening + "two");
        remember(memo, twice);
        long held = memo.bytesHeld();

        remember(memo, twice);

        assertThat(memo.bytesHeld()).isEqualTo(held);
        assertFoundAsItself(memo, twice);
    }

    private static byte[] message(String text) {
        return new JsonObject().put("role", "user").put("content", text).encode().getBytes(StandardCharsets.UTF_8);
    }

    private static void remember(ValueMemo memo, byte[] bytes) {
        memo.remember(bytes, 0, bytes.length, bytes.length, new JsonObject(new String(bytes, StandardCharsets.UTF_8)), false);
    }

    private static void assertFoundAsItself(ValueMemo memo, byte[] bytes) {
        ValueMemo.Remembered found = memo.find(bytes, 0, bytes.length);
        assertThat(found).as("found %s", new String(bytes, 0, Math.min(60, bytes.length), StandardCharsets.UTF_8)).isNotNull();
        assertThat(found.value()).isEqualTo(new JsonObject(new String(bytes, StandardCharsets.UTF_8)));
    }
}
