package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.ImageAccounting;
import io.agentfuse.agent.tokens.TokenCounter;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The ladder's counter for one request whose earlier part a provider reported
 * ({@link ReportedPrompts.Calibration}): the count of the request is the reported tokens plus the
 * estimate of the messages after that part, as Claude Code counts its own context; and so that
 * compacting it works to the same count, each message of the reported part counts as its estimate
 * times the provider's ratio to the estimate over that part. A compacted conversation that keeps some of
 * those messages (the very objects) counts them so, and what compaction wrote (a summary, the
 * snipping marker) by the estimate: dropping a reported message takes away its share of the report,
 * not its estimate, which may be half or twice as much.
 *
 * <p>The request's own conversation counts exactly {@code reported + estimate(rest)}; a conversation
 * that lacks part of the reported prefix, {@code ceil(ratio × estimate(what it keeps of it))} plus the
 * estimate of the rest. Bounds are the counts (counting is what compaction does anyway).
 *
 * <p>Made per compaction; thread-safe when its base is (immutable after construction).
 */
final class CalibratedCounter implements TokenCounter {

    private final TokenCounter base;
    private final Set<Message> reported;
    private final long reportedTokens;
    /** The base's count of the reported part: the reply's priming and its messages. */
    private final long estimated;

    /**
     * @param base           the ladder's estimating counter
     * @param conversation   the request's conversation, as the ladder mapped it
     * @param reportedPart   how many of its first messages (system and tools messages included) the report covers
     * @param reportedTokens the input tokens the provider reported for them
     */
    CalibratedCounter(TokenCounter base, Conversation conversation, int reportedPart, long reportedTokens) {
        this.base = base;
        this.reportedTokens = reportedTokens;
        this.reported = Collections.newSetFromMap(new IdentityHashMap<>(2 * reportedPart));
        long estimate = TOKENS_PER_REPLY;
        for (int i = 0; i < reportedPart; i++) {
            Message message = conversation.get(i);
            reported.add(message);
            estimate += base.countMessage(message);
        }
        this.estimated = Math.max(1, estimate);
    }

    /**
     * The count of a request whose first {@code reportedPart} messages a provider reported as
     * {@code reportedTokens}: those tokens plus {@code base}'s count of each later message.
     */
    static long count(TokenCounter base, Conversation conversation, int reportedPart, long reportedTokens) {
        long tokens = reportedTokens;
        for (int i = reportedPart; i < conversation.size(); i++) {
            tokens += base.countMessage(conversation.get(i));
        }
        return tokens;
    }

    @Override
    public int countText(String text) {
        return base.countText(text);
    }

    @Override
    public int countMessage(Message message) {
        int estimate = base.countMessage(message);
        return reported.contains(message) ? scaled(estimate) : estimate;
    }

    @Override
    public int countConversation(Conversation conversation) {
        long kept = TOKENS_PER_REPLY;
        int keptCount = 0;
        long rest = 0;
        for (Message message : conversation.messages()) {
            if (reported.contains(message)) {
                kept += base.countMessage(message);
                keptCount++;
            } else {
                rest += base.countMessage(message);
            }
        }
        long tokens = (keptCount == reported.size() ? reportedTokens : scaled(kept)) + rest;
        return (int) Math.min(Integer.MAX_VALUE, tokens);
    }

    @Override
    public int upperBoundMessage(Message message) {
        return countMessage(message);
    }

    @Override
    public int upperBoundConversation(Conversation conversation) {
        return countConversation(conversation);
    }

    @Override
    public ImageAccounting imageAccounting() {
        return base.imageAccounting();
    }

    private int scaled(long estimate) {
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil((double) estimate * reportedTokens / estimated));
    }
}
