package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;
import io.agentfuse.gateway.http.ShapeScan;
import io.vertx.core.buffer.Buffer;

/**
 * The fast path of {@link OpenAiResponseCodec#check}: one pass over a {@code chat.completion}
 * body's bytes ({@link ShapeScan}) that checks the same field list ({@link OpenAiShapes#ANSWER})
 * and reads the usage without building the tree or even a parser (for a small answer the tree cost
 * as much as the rest of the gateway's bookkeeping, a Jackson parser a tenth of a request). It only
 * ever says yes: what it does not recognise as plainly well formed, the tree-based check decides
 * and explains. So whatever it accepts, the check accepts too, with the same usage.
 *
 * <p>Thread-safe: a scan is made per body.
 */
final class OpenAiAnswerScan {

    private OpenAiAnswerScan() {
    }

    /** The usage of {@code body} if it is plainly a well-formed answer; {@code null}: ask the tree-based check. */
    static Usage usageIfWellFormed(Buffer body) {
        long[] counts = new long[OpenAiShapes.CACHED_TOKENS + 1];
        boolean plain = ShapeScan.matches(JsonScan.of(body), OpenAiShapes.ANSWER, (slot, count) -> counts[slot] = count);
        return plain ? OpenAiResponseCodec.usage(counts[OpenAiShapes.PROMPT_TOKENS],
                counts[OpenAiShapes.COMPLETION_TOKENS], counts[OpenAiShapes.CACHED_TOKENS]) : null;
    }
}
