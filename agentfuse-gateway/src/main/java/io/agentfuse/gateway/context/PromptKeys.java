package io.agentfuse.gateway.context;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.ToolDefinition;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The keys a provider's reported usage is remembered and found by ({@link ReportedPrompts}): a 64-bit
 * hash of what a prompt's tokens depend on, its system prompt, its tools (name, description, schema)
 * and its first {@code k} messages. Equal content gives equal keys whatever the objects; messages that
 * differ anywhere give another key but by a chance of 2<sup>-64</sup>; a long text of the system prompt
 * or a tool counts by its length and three windows of it ({@link #headText}), which a prompt's edits in
 * an agent's session change (its date, its state), and two that differ only elsewhere count alike. Seeded
 * per process, so that a caller cannot prepare prompts that share a key without sharing their content.
 *
 * <p>Cheap for an agent's resent conversation: each message's own hash (and the length of its text) is
 * kept on the message ({@link ChatMessage#key}), which the parser hands out again for a message resent,
 * so only a turn's new messages are hashed, once; a tool's hash is kept on its decoded schema
 * ({@link ToolsMessage.Schema}), so that a resent tool costs a comparison; the system prompt a few windows.
 * The keys of a request then cost one step per message; what is new costs about a tenth of what
 * decoding its JSON cost. (The whole system prompt, hashed on every request, was some 3 µs of the 150 KB
 * conversation's request by the profile: a new {@code String} each time, not known again by identity.)
 *
 * <p>Stateless and thread-safe.
 */
final class PromptKeys {

    private static final long SEED = ThreadLocalRandom.current().nextLong() | 1L;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    /** Texts of the system prompt and tools from this length on are hashed by samples ({@link #headText}). */
    private static final int SAMPLED_FROM_CHARS = 256;
    /** The chars of each sampled window of such a text. */
    private static final int WINDOW_CHARS = 64;
    /** Whose keys the messages keep ({@link ChatMessage#key}). */
    private static final Object KEYER = PromptKeys.class;
    /** How many prefixes of a request {@link #of} finishes keys of: all that {@link ReportedPrompts#find} looks up. */
    static final int LOOKED_UP = ReportedPrompts.MOST_FEWER + 1;

    private PromptKeys() {
    }

    /**
     * The keys of {@code request}'s system prompt and tools with its first {@code k} messages, for the
     * last {@link #LOOKED_UP} prefixes (the whole request and a few messages fewer, all that
     * {@link ReportedPrompts#find} looks up).
     */
    static Prefixes of(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        int count = messages.size();
        long[] keys = new long[Math.min(LOOKED_UP, count + 1)];
        int firstFinished = count + 1 - keys.length;
        long h = head(request);
        if (firstFinished == 0) {
            keys[count] = finish(h, 0);
        }
        for (int i = 0; i < count; i++) {
            h = mix(h, messageKey(messages.get(i)));
            if (i + 1 >= firstFinished) {
                keys[count - i - 1] = finish(h, i + 1);
            }
        }
        return new Prefixes(count, keys);
    }

    /**
     * The keys of a request of {@code messages} messages' last prefixes: {@code keys[0]} of the whole,
     * {@code keys[i]} of {@code i} messages fewer.
     */
    record Prefixes(int messages, long[] keys) {

        /** The key of the first {@code prefix} messages, one of the last {@code keys.length} prefixes. */
        long keyOf(int prefix) {
            return keys[messages - prefix];
        }
    }

    /**
     * The key of the whole of {@code request} and the length of its text (system prompt, tools, and the
     * messages' texts, tool calls' arguments and tool results; not media), in one step per message: a
     * message's length is kept with its key.
     */
    static Prompt prompt(ChatRequest request) {
        long h = head(request);
        long chars = (request.system() == null ? 0 : request.system().length()) + ToolsMessage.chars(request);
        List<ChatMessage> messages = request.messages();
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage message = messages.get(i);
            h = mix(h, messageKey(message));
            chars += message.keyedTextChars(KEYER);
        }
        return new Prompt(finish(h, messages.size()), chars);
    }

    /** A whole prompt's key, and the length of its text. */
    record Prompt(long key, long textChars) {
    }

    // The system prompt, then each tool.
    private static long head(ChatRequest request) {
        long h = mix(SEED, request.system() == null ? -1 : headText(request.system()));
        h = mix(h, request.tools().size());
        for (ToolDefinition tool : request.tools()) {
            h = mix(h, toolKey(tool));
        }
        return h;
    }

    // A tool's name, description (a null one apart from an empty one) and schema; kept on its decoded schema,
    // which a resent request's tool has again, so that an agent's twenty tools cost a comparison each.
    private static long toolKey(ToolDefinition tool) {
        ToolsMessage.Schema schema = ToolsMessage.schema(tool);
        long known = schema.keyOf(tool);
        if (known != 0) {
            return known;
        }
        long h = mix(SEED, headText(tool.name()));
        h = mix(h, tool.description() == null ? -1 : headText(tool.description()));
        long key = mix(h, headText(schema.text())) | 1L; // never 0, which the schema reads as none
        ToolsMessage.rememberKey(tool, schema, key);
        return key;
    }

    private static long messageKey(ChatMessage message) {
        long known = message.key(KEYER);
        if (known != 0) {
            return known;
        }
        long h = mix(SEED, message.role().ordinal());
        long chars = 0;
        for (ContentPart part : message.content()) {
            h = part(h, part);
            chars += textChars(part);
        }
        long key = finish(h, message.content().size()) | 1L; // never 0, which ChatMessage reads as none
        message.rememberKey(KEYER, key, chars);
        return key;
    }

    private static long textChars(ContentPart part) {
        if (part instanceof ContentPart.Text text) {
            return text.text().length();
        }
        if (part instanceof ContentPart.ToolCall call) {
            return call.arguments().length();
        }
        return part instanceof ContentPart.ToolResult result ? result.content().length() : 0;
    }

    private static long part(long h, ContentPart part) {
        if (part instanceof ContentPart.Text text) {
            return text(mix(h, 1), text.text());
        }
        if (part instanceof ContentPart.ToolCall call) {
            return text(text(text(mix(h, 2), call.id()), call.name()), call.arguments());
        }
        if (part instanceof ContentPart.ToolResult result) {
            h = text(text(mix(h, result.isError() ? 4 : 3), result.toolCallId()), result.content());
            for (ContentPart attachment : result.attachments()) {
                h = part(mix(h, 5), attachment);
            }
            return h;
        }
        if (part instanceof ContentPart.Opaque opaque) {
            return text(mix(h, 6), opaque.json());
        }
        if (part instanceof ContentPart.Image image) {
            return media(mix(h, 7), image.source());
        }
        if (part instanceof ContentPart.Document document) {
            return text(media(mix(h, 8), document.source()), document.title() == null ? "" : document.title());
        }
        if (part instanceof ContentPart.Audio audio) {
            return media(mix(h, 9), audio.source());
        }
        return media(mix(h, 10), ((ContentPart.Video) part).source());
    }

    // Inline data by its base64 chars as they came, never copied into a data URL.
    private static long media(long h, MediaSource source) {
        if (source instanceof MediaSource.Inline inline) {
            return text(text(mix(h, 1), inline.mediaType()), inline.base64Chars());
        }
        return text(mix(h, 2), source.url());
    }

    // A text of the system prompt or a tool. A long one by its length and three windows of it (its start,
    // middle and end), not every char: these are hashed on every request, and a long system prompt may be a
    // new String each time (the identity of a String is no key); two prompts alike in all of that count alike.
    private static long headText(String text) {
        int length = text.length();
        if (length < SAMPLED_FROM_CHARS) {
            return text(SEED, text);
        }
        long h = mix(SEED, length);
        h = text(h, text, 0, WINDOW_CHARS);
        h = text(h, text, length / 2 - WINDOW_CHARS / 2, length / 2 + WINDOW_CHARS / 2);
        return text(h, text, length - WINDOW_CHARS, length);
    }

    // The length first, so that moving a char from one text to the next changes the hash.
    private static long text(long h, CharSequence text) {
        return text(h, text, 0, text.length());
    }

    private static long text(long h, CharSequence text, int from, int to) {
        h = mix(h, to - from);
        int i = from;
        for (; i + 3 < to; i += 4) {
            h = mix(h, text.charAt(i) | (long) text.charAt(i + 1) << 16 | (long) text.charAt(i + 2) << 32
                    | (long) text.charAt(i + 3) << 48);
        }
        long tail = 0;
        for (; i < to; i++) {
            tail = tail << 16 | text.charAt(i);
        }
        return mix(h, tail);
    }

    // Both steps are bijections of h for a fixed word, so two words never meet in one step.
    private static long mix(long h, long word) {
        h = (h ^ word) * MULTIPLIER;
        return h ^ (h >>> 29);
    }

    private static long finish(long h, int messages) {
        h = mix(h, messages);
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        return h ^ (h >>> 31);
    }
}
