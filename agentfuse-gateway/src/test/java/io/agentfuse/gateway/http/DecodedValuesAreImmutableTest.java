package io.agentfuse.gateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A decoded body is deeply unmodifiable whatever its size and whichever reading decoded it: a
 * change that edits a decoded value fails on a small body as it would on a long conversation,
 * whose values the memo shares across requests.
 */
class DecodedValuesAreImmutableTest {

    private static final String MESSAGE = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}";

    @Test
    void aSmallBodyIsUnmodifiableAllTheWayDown() {
        assertUnmodifiable((JsonObject) StrictJson.decode(Buffer.buffer("{\"model\":\"m\",\"messages\":[" + MESSAGE + "]}")));
    }

    @Test
    void aBodyOnlyTheParserReadsIsUnmodifiableAllTheWayDown() {
        // An escape in a name and a fraction: left by the quick reading to Jackson
        assertUnmodifiable((JsonObject) StrictJson.decode(Buffer.buffer(
                "{\"mod\\u0065l\":\"m\",\"temperature\":0.5,\"messages\":[" + MESSAGE + "]}")));
    }

    @Test
    void aLongBodyReadThroughTheMemoIsUnmodifiableAllTheWayDown() {
        String padding = "x".repeat(StrictJson.MEMO_FROM_BYTES);
        Buffer body = Buffer.buffer("{\"model\":\"m\",\"system\":\"" + padding + "\",\"messages\":[" + MESSAGE + "]}");
        ValueMemo memo = new ValueMemo(64, 1 << 20);

        for (int resent = 0; resent < 2; resent++) { // decoded, then found in the memo
            assertUnmodifiable((JsonObject) StrictJson.decode(body, new StrictJson.FieldSpans(), memo));
        }
    }

    @Test
    void aCopyIsTheWayToChangeOne() {
        JsonObject decoded = (JsonObject) StrictJson.decode(Buffer.buffer("{\"model\":\"m\",\"messages\":[" + MESSAGE + "]}"));

        JsonObject copy = decoded.copy().put("model", "other");
        copy.getJsonArray("messages").getJsonObject(0).put("role", "assistant");

        assertThat(copy.getString("model")).isEqualTo("other");
        assertThat(decoded.getJsonArray("messages").getJsonObject(0).getString("role")).isEqualTo("user");
    }

    private static void assertUnmodifiable(JsonObject body) {
        JsonArray messages = body.getJsonArray("messages");
        JsonObject message = messages.getJsonObject(0);
        JsonObject part = message.getJsonArray("content").getJsonObject(0);
        assertThatThrownBy(() -> body.put("model", "other")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> body.remove("model")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> messages.add(new JsonObject())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> message.put("role", "assistant")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> part.put("text", "changed")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> message.getJsonArray("content").remove(0)).isInstanceOf(UnsupportedOperationException.class);
    }
}
