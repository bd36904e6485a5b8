package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.http.JsonScan;

import java.nio.charset.StandardCharsets;

import static io.agentfuse.gateway.http.JsonScan.noteOnce;

/**
 * The fast path of {@link OpenAiStreamDecoder#observe}: one pass over a {@code chat.completion.chunk}
 * event's bytes ({@link JsonScan}) that finds what a stream relayed to an OpenAI caller as it came
 * needs from it — that it is well formed, and the finish reason of choice 0 — without building the
 * tree. It only ever says yes: an {@code error} or {@code usage} that is not null, tool calls, a
 * field of the wrong type, a key given twice, a finish reason that is not plain ASCII, anything it
 * does not recognise as plainly well formed makes it give up, and the tree-based decoder decides.
 * So whatever it accepts, {@link OpenAiStreamDecoder#decode} accepts too, reports no error, no
 * usage, and the same finish reason.
 *
 * <p>Thread-safe: a scan is made per event.
 */
final class OpenAiChunkScan {

    /** What an accepted chunk says: the finish reason of its choice 0, or {@code null} for none. */
    record Chunk(String finishReason) {
    }

    private static final Chunk NO_FINISH = new Chunk(null);
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
    private String choiceFinish;
    private long choiceIndex;

    private OpenAiChunkScan() {
    }

    /** What {@code data} (one event's) says if it is plainly a well-formed chunk; {@code null}: ask the decoder. */
    static Chunk read(byte[] data) {
        JsonScan scan = JsonScan.of(data);
        if (scan == null) {
            return null;
        }
        OpenAiChunkScan chunk = new OpenAiChunkScan();
        if (scan.object(chunk::chunkMember) < 0 || !scan.atEnd()) {
            return null;
        }
        return chunk.finishReason == null ? NO_FINISH : new Chunk(chunk.finishReason);
    }

    private int chunkMember(JsonScan scan, int seen) {
        if (scan.nameIs(CHOICES)) {
            return scan.takeNull() || scan.array(this::choice) >= 0 ? noteOnce(seen, SEEN_CHOICES) : -1;
        }
        int text = scan.nameIs(ID) ? SEEN_ID : scan.nameIs(MODEL) ? SEEN_MODEL : 0;
        if (text != 0) {
            return scan.stringOrNull() ? noteOnce(seen, text) : -1;
        }
        // A provider's error and the usage are the decoder's to read; a null one is no news.
        int nullOnly = scan.nameIs(ERROR) ? SEEN_ERROR : scan.nameIs(USAGE) ? SEEN_USAGE : 0;
        if (nullOnly != 0) {
            return scan.takeNull() ? noteOnce(seen, nullOnly) : -1;
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
