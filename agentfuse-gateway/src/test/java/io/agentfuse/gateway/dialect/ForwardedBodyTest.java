package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ForwardedBodyTest {

    private static final String MESSAGES = "[ {\"role\":\"user\",\n \"content\":\"h\\u00e9llo \\\"you\\\"\"} ]";
    private static final String RAW = "{ \"model\" : \"gpt-4o\",\n  \"messages\": " + MESSAGES
            + " , \"temperature\":1e0,\"stream\":true,\"x\":{\"a\":[1, 2]}\t}";

    @Test
    void forwardsTheCallersBytesWithOnlyTheReplacedFieldsEncodedAgain() {
        // Given the caller's body and the same-dialect body the gateway makes of it
        Buffer raw = Buffer.buffer(RAW);
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
        JsonObject patched = Dialects.OPENAI.sameDialectRequest(ChatRequest.shallowCopy(received), "gpt-4o-2024", true);

        // When it is written from the caller's bytes
        Buffer written = ForwardedBody.of(raw, spans).write(received, patched);

        // Then it says what the patched body says, with the untouched fields byte for byte as sent
        assertThat(new JsonObject(written)).isEqualTo(patched);
        assertThat(written.toString()).contains("\"messages\": " + MESSAGES).contains("\"temperature\":1e0")
                .contains("\"x\":{\"a\":[1, 2]}").contains("\"model\":\"gpt-4o-2024\"")
                .contains("\"stream_options\":{\"include_usage\":true}");
        assertThat(received.getString("model")).isEqualTo("gpt-4o");
    }

    @Property
    void anAddedFieldOfAnyNameIsWrittenAsValidJson(
            @ForAll @StringLength(max = 8) @CharRange(from = '\u0000', to = '\u00ff') String name) {
        Buffer raw = Buffer.buffer(RAW);
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
        Assume.that(!received.containsKey(name));
        JsonObject patched = ChatRequest.shallowCopy(received).put(name, "added");

        Buffer written = ForwardedBody.of(raw, spans).write(received, patched);

        assertThat(new JsonObject(written)).isEqualTo(patched);
    }

    @Test
    void forwardsTheCallersOwnBufferWhenNoFieldChanged() {
        // Given a body whose model the gateway replaces by the same name (upstreamModel defaults to it)
        Buffer raw = Buffer.buffer(RAW);
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
        JsonObject patched = Dialects.OPENAI.sameDialectRequest(ChatRequest.shallowCopy(received),
                new String("gpt-4o".toCharArray()), false);

        // When it is written from the caller's bytes
        Buffer written = ForwardedBody.of(raw, spans).write(received, patched);

        // Then the caller's buffer goes as it came, not a copy of it
        assertThat(written).isSameAs(raw);
    }

    @Test
    void leavesOutAFieldTheGatewayRemoved() {
        Buffer raw = Buffer.buffer(RAW);
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
        JsonObject patched = ChatRequest.shallowCopy(received);
        patched.remove("x");

        Buffer written = ForwardedBody.of(raw, spans).write(received, patched);

        assertThat(new JsonObject(written)).isEqualTo(patched);
    }

    @Test
    void refusesBytesWithADuplicateKeyAtAnyDepth() {
        for (String body : new String[] {"{\"model\":\"a\",\"model\":\"b\"}",
            "{\"model\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":null,\"content\":null}]}"}) {
            Buffer raw = Buffer.buffer(body);
            StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
            StrictJson.decode(raw, spans);

            assertThat(spans.repeatedKey()).as(body).isTrue();
            assertThat(ForwardedBody.of(raw, spans)).as(body).isNull();
        }
    }

    @Test
    void writesNothingForABodyOtherThanTheOneTheBytesWereDecodedInto() {
        Buffer raw = Buffer.buffer(RAW);
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        StrictJson.decode(raw, spans);
        JsonObject other = new JsonObject().put("model", "gpt-4o");

        assertThat(ForwardedBody.of(raw, spans).write(other, ChatRequest.shallowCopy(other))).isNull();
    }

    @Test
    void refusesBytesThatAreNotUtf8() {
        Buffer raw = Buffer.buffer("{\"model\":\"a\"}".getBytes(StandardCharsets.UTF_16LE));
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        StrictJson.decode(raw, spans);

        assertThat(ForwardedBody.of(raw, spans)).isNull();
    }

    @Test
    void aLargeBodyWithItsModelReplacedSharesTheCallersBytesInsteadOfCopyingThem() {
        // Given a 1 MB Claude Code turn (a screenshot's base64, say) whose model the gateway renames
        String image = "iVBORw0KGgo" + "AbCd+/9z".repeat(128 * 1024);
        String messages = "[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"base64\","
                + "\"media_type\":\"image/png\",\"data\":\"" + image + "\"}},{\"type\":\"text\",\"text\":\"h\u00e9 \ud83d\ude00\"}]}]";
        Buffer raw = Buffer.buffer("{\"model\":\"claude\", \"max_tokens\":100,\n \"messages\": " + messages + "}");
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        JsonObject received = (JsonObject) StrictJson.decode(raw, spans);
        JsonObject patched = Dialects.ANTHROPIC.sameDialectRequest(ChatRequest.shallowCopy(received), "claude-sonnet-4-5", false);
        ForwardedBody forwarded = ForwardedBody.of(raw, spans);
        Buffer first = forwarded.write(received, patched);

        // When it is written again, once per step of a chain that keeps the caller's dialect
        long before = allocatedByThisThread();
        for (int i = 0; i < 10; i++) {
            forwarded.write(received, patched);
        }
        long allocated = allocatedByThisThread() - before;

        // Then it says what the patched body says, the caller's bytes as they came, and ten writes
        // together allocate less than one copy of it
        assertThat(new JsonObject(first)).isEqualTo(patched);
        assertThat(first.toString()).contains("\"messages\": " + messages).contains("\"model\":\"claude-sonnet-4-5\"");
        assertThat(allocated).as("bytes allocated by ten writes of a %d-byte body", raw.length()).isLessThan(raw.length());
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
