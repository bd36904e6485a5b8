package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;
import io.agentfuse.gateway.http.ScanPrefix;
import io.agentfuse.gateway.http.JsonShape;
import io.agentfuse.gateway.http.ShapeScan;

/**
 * The fast path of {@link OpenAiStreamDecoder#observe}: one pass over a {@code chat.completion.chunk}
 * event's bytes ({@link ShapeScan}, over the decoder's own field list {@link OpenAiShapes#CHUNK})
 * that finds what a stream relayed to an OpenAI caller as it came needs from it — that it is well
 * formed, the finish reason of choice 0, the usage, whether it is the usage chunk (empty choices),
 * and whether choice 0 carries text (where the answer begins) — without building the tree. It only ever says yes: an error that is not null, tool
 * calls, reasoning, a field of the wrong kind, a key given twice, a finish reason that is not plain ASCII, a
 * token count that is not a plain whole number, anything it does not recognise as plainly well
 * formed makes it give up, and the decoder decides. So whatever it accepts,
 * {@link OpenAiStreamDecoder#decode} accepts too, reports no error, and the same finish reason and usage.
 *
 * <p>Not thread-safe: one per event.
 */
final class OpenAiChunkScan implements ShapeScan.Captures {

    /**
     * What an accepted chunk says.
     *
     * @param finishReason the finish reason of its choice 0, or {@code null} for none
     * @param usage        its usage object's token counts, or {@code null} for none (absent or null)
     * @param noChoices    whether its choices are an empty array (with a usage: the usage chunk)
     * @param text         whether a choice 0 has a delta with content or a refusal that is not empty
     */
    record Chunk(String finishReason, Usage usage, boolean noChoices, boolean text) {

        /** A chunk without a finish reason, usage or text, with choices (a stream's first, its role only). */
        static final Chunk PLAIN = new Chunk(null, null, false, false);

        /** A chunk with text, without a finish reason or usage (most of a stream's). */
        static final Chunk TEXT = new Chunk(null, null, false, true);
    }

    private String finishReason;
    private long choices = -1; // -1: choices absent or null
    private boolean usage; // false: absent or null
    private long promptTokens;
    private long completionTokens;
    private long cachedTokens;
    private long choiceIndex;
    private String choiceFinish;
    private boolean choiceText;
    private boolean text;

    private OpenAiChunkScan() {
    }

    /**
     * What {@code data} (one event's) says if it is plainly a well-formed chunk; {@code null}: ask the decoder.
     *
     * @param leading what the stream's earlier chunks began with (their id, model and the like), read once
     */
    static Chunk read(byte[] data, ScanPrefix leading) {
        OpenAiChunkScan chunk = new OpenAiChunkScan();
        if (!ShapeScan.matches(JsonScan.of(data), OpenAiShapes.CHUNK, chunk, leading)) {
            return null;
        }
        if (chunk.finishReason == null && !chunk.usage && chunk.choices != 0) {
            return chunk.text ? Chunk.TEXT : Chunk.PLAIN;
        }
        return new Chunk(chunk.finishReason, chunk.usage
                ? OpenAiResponseCodec.usage(chunk.promptTokens, chunk.completionTokens, chunk.cachedTokens) : null,
                chunk.choices == 0, chunk.text);
    }

    @Override
    public void count(int slot, long value) {
        switch (slot) {
            case OpenAiShapes.PROMPT_TOKENS -> promptTokens = value;
            case OpenAiShapes.COMPLETION_TOKENS -> completionTokens = value;
            case OpenAiShapes.CACHED_TOKENS -> cachedTokens = value;
            case OpenAiShapes.CHOICES -> choices = value;
            case OpenAiShapes.INDEX -> choiceIndex = value;
            case OpenAiShapes.CONTENT_LENGTH, OpenAiShapes.REFUSAL_LENGTH -> choiceText |= value > 0;
            default -> throw new IllegalArgumentException("no count in slot " + slot);
        }
    }

    @Override
    public void string(int slot, String value) {
        choiceFinish = value; // the only string captured
    }

    @Override
    public void objectStart(JsonShape.Obj shape) {
        if (shape == OpenAiShapes.CHOICE) {
            choiceIndex = 0;
            choiceFinish = null;
            choiceText = false;
        } else if (shape == OpenAiShapes.USAGE) {
            usage = true;
        }
    }

    @Override
    public void objectEnd(JsonShape.Obj shape) {
        // The decoder reads choice 0 only (an absent index is 0; it takes the index as an int), later ones last.
        if (shape == OpenAiShapes.CHOICE && (int) choiceIndex == 0) {
            text |= choiceText;
            if (choiceFinish != null) {
                finishReason = choiceFinish;
            }
        }
    }
}
