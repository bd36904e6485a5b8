package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;

import java.nio.charset.StandardCharsets;

import static io.agentfuse.gateway.http.JsonScan.noteOnce;

/**
 * The fast path of {@link OpenAiStreamDecoder#observe}: one pass over a {@code chat.completion.chunk}
 * event's bytes ({@link JsonScan}) that finds what a stream relayed to an OpenAI caller as it came
 * needs from it — that it is well formed, the finish reason of choice 0, the usage, and whether it
 * is the usage chunk (empty choices) — without building the tree. It only ever says yes: an
 * {@code error} that is not null, tool calls, a field of the wrong type, a key given twice, a
 * finish reason that is not plain ASCII, a token count that is not a plain whole number, anything
 * it does not recognise as plainly well formed makes it give up, and the tree-based decoder
 * decides. So whatever it accepts, {@link OpenAiStreamDecoder#decode} accepts too, reports no
 * error, and the same finish reason and usage.
 *
 * <p>Thread-safe: a scan is made per event.
 */
final class OpenAiChunkScan {

    /**
     * What an accepted chunk says.
     *
     * @param finishReason the finish reason of its choice 0, or {@code null} for none
     * @param usage        its usage object's token counts, or {@code null} for none (absent or null)
     * @param noChoices    whether its choices are an empty array (with a usage: the usage chunk)
     */
    record Chunk(String finishReason, Usage usage, boolean noChoices) {

        /** A chunk without a finish reason or usage, with choices. */
        static final Chunk PLAIN = new Chunk(null, null, false);
    }

    /** Longer finish reasons than OpenAI's longest ({@code content_filter}) are left to the tree. */
    private static final int MAX_FINISH_REASON = 64;

    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] ID = ascii("id");
    private static final byte[] MODEL = ascii("model");
    private static final byte[] ERROR = ascii("error");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] INDEX = ascii("index");
    private static final byte[] FINISH_REASON = ascii("finish_reason");
    private static final byte[] DELTA = ascii("delta");
    private static final byte[] TOOL_CALLS = ascii("tool_calls");

    // What one chunk's members noted (bits for JsonScan.noteOnce), and what its choices said.
    private static final int SEEN_CHOICES = 1;
    private static final int SEEN_ID = 2;
    private static final int SEEN_MODEL = 4;
    private static final int SEEN_ERROR = 8;
    private static final int SEEN_USAGE = 16;
    private static final int SEEN_INDEX = 1;
    private static final int SEEN_FINISH = 2;
    private static final int SEEN_DELTA = 4;

    private String finishReason;
    private int choiceCount = -1; // -1: choices absent or null
    private OpenAiUsageScan usage; // null: absent, or null
    private String choiceFinish;
    private long choiceIndex;

    private OpenAiChunkScan() {
    }

    /**
     * What {@code data} (one event's) says if it is plainly a well-formed chunk; {@code null}: ask the decoder.
     *
     * @param leading what the stream's earlier chunks began with (their id, model and the like), read once
     */
    static Chunk read(byte[] data, JsonScan.Prefix leading) {
        JsonScan scan = JsonScan.of(data);
        if (scan == null) {
            return null;
        }
        OpenAiChunkScan chunk = new OpenAiChunkScan();
        if (scan.object(chunk::chunkMember, leading) < 0 || !scan.atEnd()) {
            return null;
        }
        if (chunk.finishReason == null && chunk.usage == null && chunk.choiceCount != 0) {
            return Chunk.PLAIN;
        }
        return new Chunk(chunk.finishReason, chunk.usage == null ? null : chunk.usage.usage(), chunk.choiceCount == 0);
    }

    private int chunkMember(JsonScan scan, int seen) {
        if (scan.nameIs(CHOICES)) {
            scan.keepsState();
            if (scan.takeNull()) {
                return noteOnce(seen, SEEN_CHOICES);
            }
            choiceCount = scan.array(this::choice);
            return choiceCount >= 0 ? noteOnce(seen, SEEN_CHOICES) : -1;
        }
        int text = scan.nameIs(ID) ? SEEN_ID : scan.nameIs(MODEL) ? SEEN_MODEL : 0;
        if (text != 0) {
            return scan.stringOrNull() ? noteOnce(seen, text) : -1;
        }
        if (scan.nameIs(USAGE)) {
            scan.keepsState();
            if (scan.takeNull()) {
                return noteOnce(seen, SEEN_USAGE);
            }
            usage = new OpenAiUsageScan();
            return usage.read(scan) ? noteOnce(seen, SEEN_USAGE) : -1;
        }
        // A provider's error is the decoder's to read; a null one is no news.
        if (scan.nameIs(ERROR)) {
            return scan.takeNull() ? noteOnce(seen, SEEN_ERROR) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private boolean choice(JsonScan scan) {
        choiceFinish = null;
        choiceIndex = 0;
        if (scan.object(this::choiceMember) < 0) {
            return false;
        }
        // The decoder reads choice 0 only (an absent index is 0; it takes the index as an int), later ones last.
        if ((int) choiceIndex == 0 && choiceFinish != null) {
            finishReason = choiceFinish;
        }
        return true;
    }

    private int choiceMember(JsonScan scan, int seen) {
        if (scan.nameIs(INDEX)) {
            choiceIndex = scan.count();
            return choiceIndex >= 0 ? noteOnce(seen, SEEN_INDEX) : -1;
        }
        if (scan.nameIs(FINISH_REASON)) {
            if (!scan.takeNull()) {
                choiceFinish = scan.plainString(MAX_FINISH_REASON);
                if (choiceFinish == null) {
                    return -1;
                }
            }
            return noteOnce(seen, SEEN_FINISH);
        }
        if (scan.nameIs(DELTA)) {
            return scan.object(OpenAiChunkScan::deltaMember) >= 0 ? noteOnce(seen, SEEN_DELTA) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static int deltaMember(JsonScan scan, int seen) {
        // Tool calls have a shape of their own to check, and indexes to track: the decoder reads them.
        return scan.nameIs(TOOL_CALLS) || !scan.skipValue() ? -1 : seen;
    }

    private static byte[] ascii(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }
}
