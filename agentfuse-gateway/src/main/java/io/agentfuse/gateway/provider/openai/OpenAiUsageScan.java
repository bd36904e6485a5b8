package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;

import java.nio.charset.StandardCharsets;

import static io.agentfuse.gateway.http.JsonScan.noteOnce;

/**
 * An OpenAI {@code usage} object read in one pass ({@link JsonScan}), for the scans of answers and
 * of stream chunks: its prompt and completion tokens, each a plain whole number given at most once
 * (an absent one is 0, as {@link OpenAiResponseCodec#usage} reads it); the other members (the
 * total, the details) are only checked. Anything else makes the scan give up.
 *
 * <p>Not thread-safe: one per object read.
 */
final class OpenAiUsageScan {

    private static final byte[] PROMPT_TOKENS = "prompt_tokens".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COMPLETION_TOKENS = "completion_tokens".getBytes(StandardCharsets.US_ASCII);

    private long promptTokens;
    private long completionTokens;

    /** Whether a plain usage object is here (read, moved past). */
    boolean read(JsonScan scan) {
        return scan.object(this::member) >= 0;
    }

    /** The tokens read. */
    Usage usage() {
        return Usage.of(promptTokens, completionTokens);
    }

    private int member(JsonScan scan, int seen) {
        boolean prompt = scan.nameIs(PROMPT_TOKENS);
        if (!prompt && !scan.nameIs(COMPLETION_TOKENS)) {
            return scan.skipValue() ? seen : -1;
        }
        long count = scan.count();
        if (count < 0) {
            return -1;
        }
        if (prompt) {
            promptTokens = count;
        } else {
            completionTokens = count;
        }
        return noteOnce(seen, prompt ? 1 : 2);
    }
}
