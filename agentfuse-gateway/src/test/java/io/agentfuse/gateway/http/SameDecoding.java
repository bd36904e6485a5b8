package io.agentfuse.gateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import static org.assertj.core.api.Assertions.assertThat;

/** The check of the memo's tests: decoding with a {@link ValueMemo} gives what decoding without one gives. */
final class SameDecoding {

    private SameDecoding() {
    }

    /** Decodes {@code raw} with and without {@code memo}: the same value, field spans and repeated keys; returns the memo's. */
    static JsonObject assertSameDecoding(String raw, ValueMemo memo) {
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
}
