package io.agentfuse.gateway.context;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.dialect.ToolDefinition;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys a provider's reported usage is remembered and found by ({@link ReportedPrompts}): a 64-bit
 * hash of what a prompt's tokens depend on, its system prompt, its tools (name, description, schema)
 * and its first {@code k} messages, for every {@code k}. Equal content gives equal keys whatever the
 * objects; content that differs anywhere gives another key but by a chance of 2<sup>-64</sup>. Seeded
 * per process, so that a caller cannot prepare prompts that share a key without sharing their content.
 *
 * <p>Cheap for an agent's resent conversation: each message's own hash is kept on the message
 * ({@link ChatMessage#key}), which the parser hands out again for a message resent (so only a turn's
 * new messages are hashed, once), and the long texts of the system prompt and of the tools, the same
 * {@code String}s turn after turn, are known again by identity in a small table (held weakly). The keys
 * of a request then cost one step per message and per text; what is new costs about a tenth of what
 * decoding its JSON cost.
 *
 * <p>Stateless for its callers and thread-safe: the identity table is written racily, each slot an
 * immutable entry, and a lost entry is hashed again.
 */
final class PromptKeys {

    private static final long SEED = ThreadLocalRandom.current().nextLong() | 1L;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    /** Texts from this length on are looked up by identity before they are hashed. */
    private static final int REMEMBERED_CHARS = 256;
    private static final int SEEN_SLOTS = 4_096;
    /** Whose keys the messages keep ({@link ChatMessage#key}). */
    private static final Object KEYER = PromptKeys.class;
    private static final AtomicReferenceArray<SeenText> SEEN = new AtomicReferenceArray<>(SEEN_SLOTS);

    private PromptKeys() {
    }

    /**
     * The key of {@code request}'s system prompt and tools with its first {@code k} messages, at index
     * {@code k}, for every {@code k} from 0 to all of them.
     */
    static long[] of(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        long[] keys = new long[messages.size() + 1];
        long h = head(request);
        keys[0] = finish(h, 0);
        for (int i = 0; i < messages.size(); i++) {
            h = mix(h, messageKey(messages.get(i)));
            keys[i + 1] = finish(h, i + 1);
        }
        return keys;
    }

    /** The key of the whole of {@code request}: {@code of(request)[messages]}. */
    static long whole(ChatRequest request) {
        long h = head(request);
        List<ChatMessage> messages = request.messages();
        for (int i = 0; i < messages.size(); i++) {
            h = mix(h, messageKey(messages.get(i)));
        }
        return finish(h, messages.size());
    }

    // The system prompt, then each tool; a null description apart from an empty one.
    private static long head(ChatRequest request) {
        long h = mix(SEED, request.system() == null ? -1 : knownText(request.system()));
        h = mix(h, request.tools().size());
        for (ToolDefinition tool : request.tools()) {
            h = mix(h, knownText(tool.name()));
            h = mix(h, tool.description() == null ? -1 : knownText(tool.description()));
            h = mix(h, knownText(ToolsMessage.schemaText(tool)));
        }
        return h;
    }

    private static long messageKey(ChatMessage message) {
        long known = message.key(KEYER);
        if (known != 0) {
            return known;
        }
        long h = mix(SEED, message.role().ordinal());
        for (ContentPart part : message.content()) {
            h = part(h, part);
        }
        long key = finish(h, message.content().size()) | 1L; // never 0, which ChatMessage reads as none
        message.rememberKey(KEYER, key);
        return key;
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

    // A long text's hash, found again by identity when it is the very String hashed before.
    private static long knownText(String text) {
        if (text.length() < REMEMBERED_CHARS) {
            return text(SEED, text);
        }
        int slot = System.identityHashCode(text) & (SEEN_SLOTS - 1);
        SeenText seen = SEEN.getAcquire(slot);
        if (seen != null && seen.get() == text) {
            return seen.hash;
        }
        long hash = text(SEED, text);
        SEEN.setRelease(slot, new SeenText(text, hash));
        return hash;
    }

    // The length first, so that moving a char from one text to the next changes the hash.
    private static long text(long h, CharSequence text) {
        int length = text.length();
        h = mix(h, length);
        int i = 0;
        for (; i + 3 < length; i += 4) {
            h = mix(h, text.charAt(i) | (long) text.charAt(i + 1) << 16 | (long) text.charAt(i + 2) << 32
                    | (long) text.charAt(i + 3) << 48);
        }
        long tail = 0;
        for (; i < length; i++) {
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

    /** A long text hashed, known by identity without keeping it alive. */
    private static final class SeenText extends WeakReference<String> {
        final long hash;

        SeenText(String text, long hash) {
            super(text);
            this.hash = hash;
        }
    }
}
