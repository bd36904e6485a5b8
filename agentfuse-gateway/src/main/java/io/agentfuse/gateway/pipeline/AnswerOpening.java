package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.StreamOpening;

import java.util.List;

/**
 * Where a provider stream's answer begins (docs/design.md §13): the first event that carries
 * content — text, reasoning the caller is shown (a thinking block), a tool call, the finish — or an
 * error, as opposed to a preamble that only opens the stream (Anthropic's {@code message_start}, an
 * OpenAI chunk with only the role, Responses' {@code response.created}). Until then nothing has
 * been sent to the caller, so a stall (the first-token limit), a cut, a malformed event or an
 * in-band error is a failed attempt that is retried or fallen back from invisibly, and a hedge
 * still races. An error met on the way is kept for the attempt's check ({@link #error()}).
 *
 * <p>Reasoning the caller's dialect cannot carry (DeepSeek's {@code reasoning_content} to a Messages
 * caller, a Responses reasoning item to a Chat caller: translation drops it) does not begin the
 * answer: the model is at work ({@link Stage#WORKING}), which meets the first-token limit and wins
 * any hedge race ({@code onWork}), but a cut before the answer itself begins is still retried or
 * fallen back from unseen, where handing over the stream would have ended the caller's with an error.
 *
 * <p>One per attempt, with a decoder of its own (the relay's decoder later reads the same events
 * again): it reads only the stream's opening, decoding an event only when the decoder cannot tell
 * without ({@link StreamDecoder#opening}). Confined to the call's event loop.
 */
final class AnswerOpening implements StreamOpening {

    private final StreamDecoder decoder;
    /** Whether the caller is shown the provider's reasoning: its relay passes the provider's events on as they are. */
    private final boolean reasoningShown;
    private final Runnable onWork;
    /** Whether the model was seen at work already (and {@link #onWork} run). */
    private boolean atWork;
    private StreamEvent.Error error;
    private SseEvent errorEvent;

    /**
     * @param dialect        the provider's
     * @param reasoningShown whether the caller gets the provider's reasoning (its relay passes events through)
     * @param onWork         run when the model is first seen at work on what the caller is not shown
     */
    AnswerOpening(Dialect dialect, boolean reasoningShown, Runnable onWork) {
        this.decoder = dialect.streamDecoder();
        this.reasoningShown = reasoningShown;
        this.onWork = onWork;
    }

    /** Where the answer stands after {@code event}: a preamble, the model at work unseen, or begun (content, finish or error). */
    @Override
    public Stage after(SseEvent event) {
        switch (decoder.opening(event)) {
            case PREAMBLE:
                return Stage.PREAMBLE;
            case BEGUN:
                return Stage.BEGUN;
            default:
                break;
        }
        List<StreamEvent> decoded;
        try {
            decoded = decoder.decode(event);
        } catch (RuntimeException unreadable) {
            error = new StreamEvent.Error("invalid_event", "upstream sent an event that could not be read: "
                    + unreadable.getMessage(), StreamEvent.Error.Cause.MALFORMED);
            errorEvent = event;
            return Stage.BEGUN;
        }
        boolean working = false;
        for (StreamEvent part : decoded) {
            if (part instanceof StreamEvent.Error failed) {
                error = failed;
                errorEvent = event;
                return Stage.BEGUN;
            }
            if (part instanceof StreamEvent.Reasoning && !reasoningShown) {
                working = true;
            } else if (!(part instanceof StreamEvent.Start) && !(part instanceof StreamEvent.TextDelta text && text.text().isEmpty())) {
                return Stage.BEGUN;
            }
        }
        if (!working) {
            return Stage.PREAMBLE;
        }
        if (!atWork) {
            atWork = true;
            onWork.run(); // once: every reasoning chunk after the first would only repeat the signal
        }
        return Stage.WORKING;
    }

    /**
     * What the decoder, told the stream ended, finds malformed in it (a Gemini stream none of whose
     * chunks had a candidate), without the decoder's "upstream sent" (the provider is named before
     * it); {@code null} for a stream that was merely cut.
     */
    @Override
    public String lackedAtEnd() {
        for (StreamEvent owed : decoder.end()) {
            if (owed instanceof StreamEvent.Error failed && failed.cause() == StreamEvent.Error.Cause.MALFORMED) {
                return failed.message().replaceFirst("^upstream sent ", "");
            }
        }
        return null;
    }

    /** The error the stream began with, or {@code null}. */
    StreamEvent.Error error() {
        return error;
    }

    /** The event that carried {@link #error()}, or {@code null}. */
    SseEvent errorEvent() {
        return errorEvent;
    }
}
