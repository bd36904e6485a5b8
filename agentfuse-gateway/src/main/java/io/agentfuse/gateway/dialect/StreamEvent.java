package io.agentfuse.gateway.dialect;

import java.util.List;
import java.util.Objects;

/**
 * One step of a streamed answer in the neutral model: what a {@link StreamDecoder} reads from
 * one dialect's SSE events and a {@link StreamEncoder} writes as the other's.
 *
 * <p>A well-formed stream is one {@link Start}, then reasoning, text and tool-call events in order, then
 * one {@link Finish} — or an {@link Error} at any point, which ends it. Tool calls are numbered
 * from 0 in the order they start ({@code index}), whatever the dialect's own block numbering.
 * All implementations are immutable records.
 */
public sealed interface StreamEvent {

    /** The answer begins; {@code usage} holds the input tokens when the dialect tells them up front. */
    record Start(String id, String model, Usage usage) implements StreamEvent {
        public Start {
            id = id == null ? "" : id;
            model = model == null ? "" : model;
            usage = usage == null ? Usage.ZERO : usage;
        }
    }

    /** A piece of the answer's text. */
    record TextDelta(String text) implements StreamEvent {
        public TextDelta {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The model shows its reasoning: an Anthropic or Bedrock thinking block, a Responses reasoning
     * item, summary or text, Gemini's thoughts, the {@code reasoning_content} (or {@code reasoning}) of an
     * OpenAI-compatible server's chunk. It begins the answer as text would (docs/design.md §13):
     * the provider is producing, and a caller of the same dialect sees it, so the first-token limit
     * has been met and the idle limit takes over. No other dialect carries another's reasoning:
     * {@link StreamTranslator} leaves it out, and no {@link StreamEncoder} is given one.
     */
    record Reasoning() implements StreamEvent {
        /** The one instance; the event carries nothing. */
        public static final Reasoning SHOWN = new Reasoning();
        /** {@link #SHOWN} alone, what a decoder answers for an event that shows reasoning. */
        public static final List<StreamEvent> ONLY = List.of(SHOWN);
    }

    /** Tool call number {@code index} begins. */
    record ToolCallStart(int index, String id, String name) implements StreamEvent {
        public ToolCallStart {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
        }
    }

    /** A piece of the JSON arguments of tool call number {@code index}. */
    record ToolCallDelta(int index, String arguments) implements StreamEvent {
        public ToolCallDelta {
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /** The answer is complete: why it stopped, and the tokens of the whole call. */
    record Finish(FinishReason reason, String stopSequence, Usage usage) implements StreamEvent {
        public Finish {
            reason = reason == null ? FinishReason.STOP : reason;
            usage = usage == null ? Usage.ZERO : usage;
        }
    }

    /**
     * The stream failed; {@code type} is an error type of the caller's dialect or the gateway's.
     *
     * @param cause whether the provider reported the failure, sent something that is not an event
     *              of its dialect, or ended the stream before its terminator
     */
    record Error(String type, String message, Cause cause) implements StreamEvent {
        public Error {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(cause, "cause");
        }

        /** An error event sent by the provider. */
        public Error(String type, String message) {
            this(type, message, Cause.PROVIDER);
        }

        /**
         * This error as a caller of {@code client} reads it from a provider of {@code provider}: a
         * provider's error of another family of errors ({@link Dialect#errorFamily()}) typed as
         * {@code client} types its outcome ({@link Dialect#streamErrorType}); any other as it is.
         */
        public Error asReadBy(Dialect client, Dialect provider) {
            if (cause != Cause.PROVIDER || provider.errorFamily().equals(client.errorFamily())) {
                return this;
            }
            return new Error(client.streamErrorType(provider.streamErrorOutcome(type), type), message, Cause.PROVIDER);
        }

        /** This error with {@code note} after its message (nothing when it is empty). */
        public Error noted(String note) {
            return note.isEmpty() ? this : new Error(type, message + note, cause);
        }

        /** An upstream event that is not a well-formed event of its dialect. */
        public static Error malformed(String message) {
            return new Error("upstream_error", message, Cause.MALFORMED);
        }

        /** The upstream stream ended before its dialect's terminator. */
        public static Error cut(String message) {
            return new Error("upstream_error", message, Cause.CUT);
        }

        /** Why a stream failed. */
        public enum Cause {
            /** The provider sent an error event. */
            PROVIDER,
            /** The provider sent an event that is not a well-formed event of its dialect. */
            MALFORMED,
            /** The stream ended before the dialect's terminator. */
            CUT
        }
    }
}
