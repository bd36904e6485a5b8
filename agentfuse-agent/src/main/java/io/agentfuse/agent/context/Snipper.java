package io.agentfuse.agent.context;

import io.agentfuse.agent.context.internal.ConversationLayout;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Aggressive, cheap compaction: drops the oldest messages until a conversation fits, and leaves a
 * marker saying how many went.
 *
 * <p>Guarantees, whatever the input:
 * <ul>
 *   <li>system messages and pinned messages are kept, in order, as the same instances;</li>
 *   <li>a tool call and the results answering it are kept or dropped together;</li>
 *   <li>the latest prompt and the last message (with their tool partners) are kept: they are
 *       the request being made;</li>
 *   <li>the result is below the target whenever dropping everything else allowed would get it
 *       there; otherwise everything allowed is dropped, and the caller decides (see
 *       {@link ContextWindowFullException});</li>
 *   <li>the result never has more tokens than the conversation given; a conversation that is
 *       already below the target, or that dropping would not shrink, comes back as the same
 *       instance.</li>
 * </ul>
 * The marker is a user message put where the first dropped message was. Thread-safe if the
 * counter is.
 *
 * <pre>{@code
 * Snipper.Result snipped = new Snipper(counter).snip(conversation, budget.startOf(ContextLevel.AUTO_COMPACT));
 * }</pre>
 */
public final class Snipper {

    private final TokenCounter counter;

    /** @param counter measures messages, the same way the target was set */
    public Snipper(TokenCounter counter) {
        this.counter = Objects.requireNonNull(counter, "counter");
    }

    /** The marker left in place of {@code dropped} messages. */
    public static Message marker(int dropped) {
        String messages = dropped == 1 ? " earlier message was" : " earlier messages were";
        return Message.user("[agentfuse] " + dropped + messages + " removed to fit the context window.");
    }

    /**
     * Drops the oldest droppable groups of messages from {@code conversation} until it counts
     * fewer than {@code targetTokens} tokens, marker included.
     */
    public Result snip(Conversation conversation, long targetTokens) {
        long total = counter.countConversation(conversation);
        if (total < targetTokens) {
            return new Result(conversation, 0, total);
        }
        ConversationLayout layout = ConversationLayout.of(conversation);
        boolean[] dropped = new boolean[conversation.size()];
        int droppedCount = 0;
        long droppedTokens = 0;
        long tokens = total;
        for (int group = 0; group < layout.groupCount() && tokens >= targetTokens; group++) {
            if (mustKeep(layout, group)) {
                continue;
            }
            for (int index : layout.members(group)) {
                dropped[index] = true;
                droppedCount++;
                droppedTokens += counter.countMessage(conversation.get(index));
            }
            tokens = total - droppedTokens + counter.countMessage(marker(droppedCount));
        }
        if (droppedCount == 0 || tokens >= total) {
            // Dropping only tiny messages can cost more than the marker saves: never make it worse.
            return new Result(conversation, 0, total);
        }
        return new Result(withoutDropped(conversation, dropped, droppedCount), droppedCount, tokens);
    }

    private static boolean mustKeep(ConversationLayout layout, int group) {
        int size = layout.conversation().size();
        int lastPrompt = layout.lastPrompt();
        return layout.isAnchored(group)
                || group == layout.groupOf(size - 1)
                || (lastPrompt >= 0 && group == layout.groupOf(lastPrompt));
    }

    private static Conversation withoutDropped(Conversation conversation, boolean[] dropped, int droppedCount) {
        List<Message> kept = new ArrayList<>(conversation.size() - droppedCount + 1);
        boolean markerPlaced = false;
        for (int index = 0; index < conversation.size(); index++) {
            if (!dropped[index]) {
                kept.add(conversation.get(index));
            } else if (!markerPlaced) {
                kept.add(marker(droppedCount));
                markerPlaced = true;
            }
        }
        return new Conversation(kept);
    }

    /**
     * What snipping returned.
     *
     * @param conversation    the snipped conversation, or the given one if nothing was dropped
     * @param messagesDropped how many messages were dropped (the marker not counted)
     * @param tokens          the tokens of {@code conversation}, marker included
     */
    public record Result(Conversation conversation, int messagesDropped, long tokens) {
    }
}
