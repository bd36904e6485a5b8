package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body translated into the provider's dialect is encoded for each attempt: a Claude Code turn with
 * a screenshot, falling back to OpenAI, costs its size once, not the three times of Vert.x's own
 * encoding (measured 2.85 times a 4.5 MB body, two of them arrays of the whole size); and a small
 * body, as most are, costs no more than it did.
 */
class UpstreamRequestTest {

    private static final ProviderEndpoint OPENAI = new ProviderEndpoint("openai", Dialects.OPENAI,
            "http://127.0.0.1:1/v1", "k");

    /** An OpenAI body as a crossing makes it of a Claude Code turn with {@code screenshot} in it. */
    private static JsonObject translatedTurn(String screenshot, String text) {
        JsonArray content = new JsonArray();
        if (screenshot != null) {
            content.add(new JsonObject().put("type", "image_url")
                    .put("image_url", new JsonObject().put("url", "data:image/png;base64," + screenshot)));
        }
        content.add(new JsonObject().put("type", "text").put("text", text));
        return new JsonObject().put("model", "gpt-4o-mini").put("max_tokens", 64).put("stream", false)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", "You are Claude Code."))
                        .add(new JsonObject().put("role", "user").put("content", content)));
    }

    @Test
    void aLargeTranslatedBodyIsEncodedForAboutItsOwnSize() {
        // Given a 4.8 MB body translated for OpenAI, its 3.6 MB screenshot a data URL
        JsonObject body = translatedTurn("iVBORw0KGgo" + "q83+/Z0a".repeat(600 * 1024), "h\u00e9 \ud83d\ude00 " + "x".repeat(1024 * 1024));
        UpstreamRequest request = UpstreamRequest.of(OPENAI, body);
        Buffer first = request.bytes();

        // When it is encoded again, as for another attempt
        long before = allocatedByThisThread();
        Buffer again = request.bytes();
        long allocated = allocatedByThisThread() - before;

        // Then it says what the body says, and allocated little more than its own size
        assertThat(again.equals(first) && first.equals(body.toBuffer())).as("the bytes are the body's").isTrue();
        assertThat(allocated).as("bytes allocated to encode a %d-byte body", first.length())
                .isLessThan(first.length() * 11L / 10);
    }

    @Test
    void aSmallBodyIsEncodedForLittleMoreThanItsOwnSize() {
        // Given a 2 KB body, as most are
        UpstreamRequest request = UpstreamRequest.of(OPENAI, translatedTurn(null, "h\u00e9llo " + "z".repeat(1900)));
        int length = request.bytes().length();
        for (int i = 0; i < 20_000; i++) {
            request.bytes(); // compiled, as on a gateway that has been serving
        }

        // When it is encoded a thousand times
        long before = allocatedByThisThread();
        for (int i = 0; i < 1000; i++) {
            request.bytes();
        }
        long allocated = (allocatedByThisThread() - before) / 1000;

        // Then each costs its own bytes and a few small objects (Vert.x's encoding costs two copies)
        assertThat(length).isBetween(2000, 2200);
        assertThat(allocated).as("bytes allocated to encode a %d-byte body", length).isLessThan(length * 3L / 2);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
