package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a Gemini stream ({@code streamGenerateContent?alt=sse}): every event is a whole
 * {@code GenerateContentResponse} with the next parts of candidate 0. Text parts become text deltas,
 * thoughts ({@code "thought": true}) show reasoning ({@link StreamEvent.Reasoning});
 * a function call, which Gemini sends whole, becomes a tool-call start and one delta with all its
 * arguments. Gemini has no end marker: the chunk that carries the {@code finishReason} (and the final
 * {@code usageMetadata}) finishes the stream, and a stream that ends without one was cut — or, when
 * none of its chunks had a candidate, was malformed: a chunk may go without (its usage only), but a
 * stream with no candidate at all has no answer in it, as a complete answer without one has not
 * ({@link GeminiResponseCodec#checkAnswer}); a blocked prompt finishes it as a content filter. An event
 * {@code {"error": {"code", "message", "status"}}} is the provider's error, its type the Google status.
 *
 * <p>Not thread-safe; one per stream.
 */
public final class GeminiStreamDecoder implements StreamDecoder {

    private boolean started;
    /** Whether a chunk had a candidate. */
    private boolean candidates;
    private boolean finished;
    private int calls;
    private Usage usage = Usage.ZERO;

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        if (finished) {
            return List.of();
        }
        JsonObject chunk;
        try {
            chunk = new JsonObject(event.data());
        } catch (DecodeException | ClassCastException e) {
            return malformed("a stream event that is not a JSON object: " + AnswerShape.excerpt(event.data()));
        }
        if (chunk.getValue("error") instanceof JsonObject error) {
            finished = true;
            return List.of(new StreamEvent.Error(GeminiResponseCodec.string(error, "status", "INTERNAL"),
                    GeminiResponseCodec.string(error, "message", "upstream stream error")));
        }
        try {
            GeminiResponseCodec.check(chunk);
            return decodeChunk(chunk);
        } catch (MalformedAnswerException | ClassCastException | IllegalArgumentException e) {
            return malformed("a stream event of the wrong shape: " + AnswerShape.excerpt(event.data()));
        }
    }

    private List<StreamEvent> decodeChunk(JsonObject chunk) {
        List<StreamEvent> out = new ArrayList<>(3);
        if (chunk.getValue("usageMetadata") instanceof JsonObject metadata) {
            usage = GeminiResponseCodec.usage(metadata);
        }
        if (!started) {
            started = true;
            out.add(new StreamEvent.Start(chunk.getString("responseId"), chunk.getString("modelVersion"),
                    new Usage(usage.inputTokens(), 0, usage.cached())));
        }
        String id = GeminiResponseCodec.string(chunk, "responseId", "");
        JsonObject candidate = GeminiResponseCodec.candidate(chunk);
        candidates |= candidate != null;
        if (GeminiResponseCodec.showsThoughts(candidate)) {
            out.add(StreamEvent.Reasoning.SHOWN);
        }
        for (ContentPart part : GeminiResponseCodec.parts(candidate, id, calls)) {
            if (part instanceof ContentPart.Text text && !text.text().isEmpty()) {
                out.add(new StreamEvent.TextDelta(text.text()));
            } else if (part instanceof ContentPart.ToolCall call) {
                out.add(new StreamEvent.ToolCallStart(calls, call.id(), call.name()));
                out.add(new StreamEvent.ToolCallDelta(calls, call.arguments()));
                calls++;
            }
        }
        FinishReason reason = GeminiResponseCodec.finishReason(chunk, calls > 0);
        if (reason != null) {
            finished = true;
            out.add(new StreamEvent.Finish(reason, null, usage));
        }
        return out;
    }

    @Override
    public List<StreamEvent> end() {
        if (finished) {
            return List.of();
        }
        finished = true;
        if (started && !candidates) {
            return List.of(StreamEvent.Error.malformed("upstream sent a stream whose chunks had "
                    + GeminiResponseCodec.NO_CANDIDATES));
        }
        return List.of(StreamEvent.Error.cut("the upstream stream ended before a chunk with a finish reason"));
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public Usage usage() {
        return usage;
    }

    private List<StreamEvent> malformed(String message) {
        finished = true;
        return List.of(StreamEvent.Error.malformed("upstream sent " + message));
    }
}
