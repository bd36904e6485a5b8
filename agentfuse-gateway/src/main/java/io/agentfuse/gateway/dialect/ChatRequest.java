package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * A chat request in the neutral model, parsed from either dialect.
 *
 * <p><b>Why a neutral model</b> rather than translating one JSON shape straight into the other:
 * a request may be sent on to either dialect and a response read from either, so direct
 * translation needs four converters per direction (request, response, stream each way) that
 * all re-implement the same semantics; the neutral model needs one reader and one writer per
 * dialect and makes the supported subset explicit and testable. Its cost — fields the model
 * does not carry — is paid only when crossing dialects: a request sent on in its own dialect
 * is forwarded from {@link #original()}, untouched except for the model name. Features that the
 * model cannot carry are listed in {@link #untranslatable()} at parse time, and translating to
 * the other dialect then fails with those reasons.
 *
 * <p>Immutable. The body is parsed once and never copied on the way through: the request takes
 * over the {@code original} it is given (nobody may change it afterwards), {@link #received()}
 * shares it for reading, and {@link #original()} is a deep copy for a caller that must change it.
 *
 * <pre>{@code
 * ChatRequest request = Dialects.OPENAI.parseRequest(body);
 * JsonObject upstream = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5");
 * }</pre>
 *
 * @param dialect        the dialect it was parsed from
 * @param original       the body as received
 * @param model          the requested model name
 * @param system         the system prompt, or {@code null}
 * @param messages       the conversation, oldest first
 * @param tools          the tools offered to the model
 * @param toolChoice     the tool choice, or {@code null} for the provider default
 * @param sampling       length and sampling limits
 * @param streamMode     whether and how to stream
 * @param endUser        an end-user id for abuse tracking (OpenAI {@code user}, Anthropic
 *                       {@code metadata.user_id}), or {@code null}
 * @param untranslatable why the request cannot be written in the other dialect; empty when it can
 * @param crossing       what is left out when it is written in the other dialect
 */
public record ChatRequest(Dialect dialect, JsonObject original, String model, String system,
                          List<ChatMessage> messages, List<ToolDefinition> tools, ToolChoice toolChoice,
                          Sampling sampling, StreamMode streamMode, String endUser, List<String> untranslatable,
                          Crossing crossing) {

    /**
     * What a request loses on its way to another dialect, by the provider packages' translation table.
     *
     * @param dropped        fields with no effect on the answer, always left out (and named)
     * @param lenientDrops   what only a model with {@code translate: lenient} goes without (provider-run
     *                       tools, fields the gateway does not know), by name
     * @param lenientReasons why a strict model cannot take the request, one per entry of {@code lenientDrops}
     */
    public record Crossing(List<String> dropped, List<String> lenientDrops, List<String> lenientReasons) {
        /** Nothing is left out. */
        public static final Crossing NONE = new Crossing(List.of(), List.of(), List.of());

        public Crossing {
            dropped = List.copyOf(dropped);
            lenientDrops = List.copyOf(lenientDrops);
            lenientReasons = List.copyOf(lenientReasons);
        }

        /** The crossing a parse noted in {@code notes}. */
        public static Crossing of(CrossingNotes notes) {
            return notes.dropped().isEmpty() && notes.lenientDrops().isEmpty() ? NONE
                    : new Crossing(notes.dropped(), notes.lenientDrops(), notes.lenientReasons());
        }
    }

    /** A request that loses nothing on its way to another dialect but what {@code untranslatable} says. */
    public ChatRequest(Dialect dialect, JsonObject original, String model, String system, List<ChatMessage> messages,
                       List<ToolDefinition> tools, ToolChoice toolChoice, Sampling sampling, StreamMode streamMode,
                       String endUser, List<String> untranslatable) {
        this(dialect, original, model, system, messages, tools, toolChoice, sampling, streamMode, endUser,
                untranslatable, Crossing.NONE);
    }

    /** Whether to stream, and whether an OpenAI caller asked for usage in the stream. */
    public enum StreamMode {
        /** One complete answer. */
        NONE,
        /** SSE, without a usage chunk for OpenAI callers. */
        STREAM,
        /** SSE, with OpenAI's final usage chunk ({@code stream_options.include_usage}). */
        STREAM_WITH_USAGE;

        /** Whether the answer is streamed. */
        public boolean streams() {
            return this != NONE;
        }
    }

    /**
     * Length and sampling limits; every field is optional ({@code null}).
     *
     * @param maxTokens     maximum output tokens
     * @param temperature   sampling temperature
     * @param topP          nucleus sampling
     * @param stopSequences sequences that end the answer; empty when none
     */
    public record Sampling(Integer maxTokens, Double temperature, Double topP, List<String> stopSequences) {
        public Sampling {
            stopSequences = List.copyOf(stopSequences == null ? List.of() : stopSequences);
        }
    }

    public ChatRequest {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(sampling, "sampling");
        Objects.requireNonNull(streamMode, "streamMode");
        untranslatable = List.copyOf(untranslatable);
        Objects.requireNonNull(crossing, "crossing");
    }

    /** A deep copy of the body as received, to change freely; {@link #received()} reads it without copying. */
    @Override
    public JsonObject original() {
        return original.copy();
    }

    /**
     * The body as received, shared and not copied: read it, never change it. To send it on with a
     * few top-level fields replaced, change a {@linkplain #shallowCopy(JsonObject) shallow copy}.
     */
    public JsonObject received() {
        return original;
    }

    /**
     * A new object with the same top-level fields as {@code body}, whose values it shares: replacing
     * a field of the copy leaves {@code body} as it was, changing a nested value would not.
     */
    public static JsonObject shallowCopy(JsonObject body) {
        return new JsonObject(new LinkedHashMap<>(body.getMap()));
    }

    /**
     * This request without its conversation (no system prompt, no messages, an empty body): what
     * the pipeline keeps of a request once every step holds the body it sends, so that a long
     * conversation is not kept alive while the provider answers. Not a request to send.
     */
    public ChatRequest withoutConversation() {
        return new ChatRequest(dialect, new JsonObject(), model, null, List.of(), tools, toolChoice, sampling,
                streamMode, endUser, untranslatable, crossing);
    }

    /**
     * This request with its conversation replaced by {@code system} and {@code messages}: the body
     * as received with only the fields that hold the conversation rewritten (by this dialect's
     * {@link Dialect#writeRequest} and {@link Dialect#withConversation}), every other field kept as sent,
     * so that it goes to a provider of this dialect, or of another, as the caller's own would.
     *
     * @throws UntranslatableException when this dialect cannot write part of {@code messages}
     */
    public ChatRequest withConversation(String system, List<ChatMessage> messages) {
        return withConversation(system, messages, 0);
    }

    /**
     * {@link #withConversation(String, List)} for a model of {@code contextWindow} tokens (0 when it is
     * not known): a dialect's limits that depend on the window (Claude's images and document pages) are
     * those of the model the request goes to, so that a conversation snipped for a large window is not
     * held to a smaller one's limit when it goes on in the caller's own dialect.
     *
     * @throws UntranslatableException when this dialect cannot write part of {@code messages}
     */
    public ChatRequest withConversation(String system, List<ChatMessage> messages, long contextWindow) {
        // The writer reads the neutral fields only: the draft needs no copy of the caller's body.
        ChatRequest draft = new ChatRequest(dialect, new JsonObject(), model, system, messages, tools, toolChoice,
                sampling, streamMode, endUser, untranslatable);
        JsonObject written = contextWindow > 0 ? dialect.writeRequest(draft, model, contextWindow)
                : dialect.writeRequest(draft, model);
        // Only the conversation's top-level fields change: a shallow copy, the others shared as received.
        JsonObject body = dialect.withConversation(shallowCopy(original), written);
        return new ChatRequest(dialect, body, model, system, messages, tools, toolChoice, sampling, streamMode, endUser,
                untranslatable, crossing);
    }

    /**
     * The system prompt of a request that gives it in {@code parts} (OpenAI's system and developer
     * messages, in order): joined by blank lines; the one part itself when there is one, so that a
     * prompt the gateway remembers from an earlier turn stays the very same string; {@code null} for none.
     */
    public static String systemPrompt(List<String> parts) {
        return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : String.join("\n\n", parts);
    }

    /** Whether the answer is streamed. */
    public boolean stream() {
        return streamMode.streams();
    }
}
