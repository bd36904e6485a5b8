package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import io.agentfuse.agent.tokens.ImageAccounting;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.provider.MediaTokens;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Carries a gateway request to the agent module's conversation model and back, so that the
 * context ladder and compaction work on requests of either dialect.
 *
 * <p>The system prompt becomes a SYSTEM message (which snipping never drops), and so do the tools
 * offered (counted, never written back: {@link ToolsMessage}); text, tool calls
 * and tool results map one to one; images and documents travel as raw blocks holding their URL,
 * counted by it (pixels, as the counter's model family charges them; pages), and so do a tool
 * result's attachments; audio and video too, counted by their seconds.
 * Going back, the compacted conversation replaces the body's own (its dialect says which fields
 * hold it, {@link io.agentfuse.gateway.dialect.Dialect#withConversation}) while every other field
 * of the caller's body is kept as sent.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConversationMapper {

    /** The raw block of a content block the neutral model does not carry, counted as its JSON. */
    private static final String OPAQUE = "opaque";

    private ConversationMapper() {
    }

    /**
     * The conversation of {@code request}: its system prompt, its tools (a pinned system message the
     * ladder counts and never compacts: {@link ToolsMessage}), then its messages.
     */
    public static Conversation toConversation(ChatRequest request) {
        List<Message> messages = new ArrayList<>();
        if (request.system() != null && !request.system().isEmpty()) {
            messages.add(Message.system(request.system()));
        }
        Message tools = ToolsMessage.of(request);
        if (tools != null) {
            messages.add(tools);
        }
        for (ChatMessage message : request.messages()) {
            List<ContentBlock> blocks = message.content().stream().map(ConversationMapper::toBlock).toList();
            Role role = message.role() == ChatMessage.Role.ASSISTANT ? Role.ASSISTANT : Role.USER;
            messages.add(new Message(role, blocks, false, Map.of()));
        }
        return new Conversation(messages);
    }

    /**
     * At least {@code counter.countConversation(toConversation(request))}, from the request itself:
     * the counter's text bounds over the same blocks, with {@link TokenCounter}'s framing, so that
     * a request the bound settles needs no conversation built. Holds for the counters of
     * {@link TokenCounter#forModel}, which frame messages as {@link TokenCounter} does and remember
     * exact counts only below their bounds.
     */
    public static long upperBound(ChatRequest request, TokenCounter counter) {
        return bound(request, counter, counter::upperBoundText);
    }

    /**
     * {@link #upperBound} when every text's bound is {@linkplain TokenCounter#knownUpperBoundText
     * known at once} (a resent conversation), in one step per text; else {@code -1}.
     */
    public static long knownUpperBound(ChatRequest request, TokenCounter counter) {
        return bound(request, counter, counter::knownUpperBoundText);
    }

    // The framing of TokenCounter over the bound of each text; -1 as soon as one text answers -1.
    // A message's own bound is remembered on it for this counter: a resent message is the same
    // object every turn, and is then bounded in one step instead of one lookup per text.
    private static long bound(ChatRequest request, TokenCounter counter, ToIntFunction<String> textBound) {
        long tokens = TokenCounter.TOKENS_PER_REPLY;
        if (request.system() != null && !request.system().isEmpty()) {
            tokens += TokenCounter.TOKENS_PER_MESSAGE;
            int system = textBound.applyAsInt(request.system());
            if (system < 0) {
                return -1;
            }
            tokens += system;
        }
        long tools = ToolsMessage.bound(request, textBound);
        if (tools < 0) {
            return -1;
        }
        tokens += tools;
        ImageAccounting images = counter.imageAccounting();
        for (ChatMessage message : request.messages()) {
            long known = message.measured(counter);
            if (known < 0) {
                known = bound(message, textBound, images);
                if (known < 0) {
                    return -1;
                }
                message.remember(counter, known);
            }
            tokens += known;
        }
        return tokens;
    }

    private static long bound(ChatMessage message, ToIntFunction<String> textBound, ImageAccounting images) {
        long tokens = TokenCounter.TOKENS_PER_MESSAGE;
        for (ContentPart part : message.content()) {
            long partTokens = bound(part, textBound, images);
            if (partTokens < 0) {
                return -1;
            }
            tokens += partTokens;
        }
        return tokens;
    }

    private static long bound(ContentPart part, ToIntFunction<String> textBound, ImageAccounting images) {
        if (part instanceof ContentPart.Text text) {
            return textBound.applyAsInt(text.text());
        }
        if (part instanceof ContentPart.ToolCall call) {
            return sum(textBound.applyAsInt(call.id()), textBound.applyAsInt(call.name()),
                    textBound.applyAsInt(call.arguments()));
        }
        if (part instanceof ContentPart.ToolResult result) {
            long tokens = sum(textBound.applyAsInt(result.toolCallId()), textBound.applyAsInt(result.content()), 0);
            for (ContentPart attachment : result.attachments()) {
                long attached = bound(attachment, textBound, images);
                tokens = tokens < 0 || attached < 0 ? -1 : tokens + attached;
            }
            return tokens;
        }
        if (part instanceof ContentPart.Image || part instanceof ContentPart.Document || part instanceof ContentPart.Audio
                || part instanceof ContentPart.Video) {
            return MediaTokens.of(part, images); // what the counter counts for it: pixels, pages, seconds, not bytes
        }
        return textBound.applyAsInt(((ContentPart.Opaque) part).json()); // its raw block's JSON
    }

    private static long sum(int a, int b, int c) {
        return a < 0 || b < 0 || c < 0 ? -1 : (long) a + b + c;
    }

    /** {@code request} with its conversation replaced by {@code conversation}. */
    public static ChatRequest withConversation(ChatRequest request, Conversation conversation) {
        return withConversation(request, null, conversation);
    }

    /**
     * {@code request} with its conversation replaced by {@code compacted}, which compaction made of
     * {@code measured}, the {@linkplain #toConversation conversation of the request}: a message it
     * kept (the very object) goes back as the request's own message, origin and all (see
     * {@link ChatMessage#originIn}), so that within the caller's dialect it is sent as it came.
     * Written for a model of a window not known ({@link ChatRequest#withConversation(String, List, long)}).
     */
    public static ChatRequest withConversation(ChatRequest request, Conversation measured, Conversation compacted) {
        return withConversation(request, measured, compacted, 0);
    }

    /**
     * {@link #withConversation(ChatRequest, Conversation, Conversation)} written for a model of
     * {@code contextWindow} tokens, the window it was compacted for.
     */
    public static ChatRequest withConversation(ChatRequest request, Conversation measured, Conversation compacted,
                                               long contextWindow) {
        Map<Message, ChatMessage> kept = new IdentityHashMap<>();
        if (measured != null) {
            List<Message> mapped = measured.messages();
            int first = mapped.size() - request.messages().size();
            for (int i = 0; i < request.messages().size(); i++) {
                kept.put(mapped.get(first + i), request.messages().get(i));
            }
        }
        StringBuilder system = new StringBuilder();
        List<ChatMessage> messages = new ArrayList<>();
        for (Message message : compacted.messages()) {
            if (ToolsMessage.is(message)) {
                continue; // the request keeps its tools as sent
            }
            if (message.role() == Role.SYSTEM) {
                system.append(system.length() == 0 ? "" : "\n\n").append(message.text());
                continue;
            }
            ChatMessage own = kept.get(message);
            ChatMessage.Role role = message.role() == Role.ASSISTANT ? ChatMessage.Role.ASSISTANT : ChatMessage.Role.USER;
            messages.add(own != null ? own
                    : new ChatMessage(role, message.content().stream().map(ConversationMapper::toPart).toList()));
        }
        return request.withConversation(system.length() == 0 ? null : system.toString(), messages, contextWindow);
    }

    private static ContentBlock toBlock(ContentPart part) {
        if (part instanceof ContentPart.Text text) {
            return new TextBlock(text.text());
        }
        if (part instanceof ContentPart.ToolCall call) {
            return new ToolUseBlock(call.id(), call.name(), call.arguments());
        }
        if (part instanceof ContentPart.ToolResult result) {
            return new ToolResultBlock(result.toolCallId(), result.content(), result.isError(),
                    result.attachments().stream().map(attachment -> (RawBlock) toBlock(attachment)).toList());
        }
        if (part instanceof ContentPart.Opaque opaque) {
            return new RawBlock(OPAQUE, opaque.json());
        }
        if (part instanceof ContentPart.Audio audio) {
            return new RawBlock(RawBlock.AUDIO, MediaBlockJson.of(audio.source()));
        }
        if (part instanceof ContentPart.Video video) {
            return new RawBlock(RawBlock.VIDEO, MediaBlockJson.of(video.source()));
        }
        if (part instanceof ContentPart.Document document) {
            return new RawBlock(RawBlock.DOCUMENT, MediaBlockJson.ofDocument(document.source(), document.title()));
        }
        ContentPart.Image image = (ContentPart.Image) part;
        return new RawBlock(RawBlock.IMAGE, MediaBlockJson.of(image.source()));
    }

    private static ContentPart toPart(ContentBlock block) {
        if (block instanceof TextBlock text) {
            return new ContentPart.Text(text.text());
        }
        if (block instanceof ToolUseBlock use) {
            return new ContentPart.ToolCall(use.id(), use.name(), use.inputJson());
        }
        if (block instanceof ToolResultBlock result) {
            return new ContentPart.ToolResult(result.toolUseId(), result.content(), result.isError(),
                    result.attachments().stream().map(ConversationMapper::toPart).toList());
        }
        RawBlock raw = (RawBlock) block;
        if (OPAQUE.equals(raw.type())) {
            return new ContentPart.Opaque(raw.json());
        }
        JsonObject media = new JsonObject(raw.json());
        if (RawBlock.AUDIO.equals(raw.type())) {
            return new ContentPart.Audio(media.getString("url"));
        }
        if (RawBlock.VIDEO.equals(raw.type())) {
            return new ContentPart.Video(media.getString("url"));
        }
        return RawBlock.DOCUMENT.equals(raw.type()) ? new ContentPart.Document(media.getString("url"), media.getString("title"))
                : new ContentPart.Image(media.getString("url"));
    }
}
