package io.agentfuse.agent.context.internal;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The structure compaction must respect in a conversation: which messages stand or fall
 * together, which must always stay, and where the turns begin.
 *
 * <p>A <em>group</em> is a set of messages joined by tool ids: an assistant message with tool
 * calls and every message answering one of them. Compaction removes whole groups only, so a call
 * never loses its result nor a result its call. A group is <em>anchored</em> when it holds a
 * system message or a pinned message; anchored groups are never removed. Groups are numbered in
 * the order of their first message. Immutable once built; computed in linear time.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class ConversationLayout {

    private final Conversation conversation;
    private final int[] groupOfMessage;
    private final List<int[]> groups;
    private final boolean[] anchored;
    private final List<Integer> turnStarts;

    private ConversationLayout(Conversation conversation, int[] groupOfMessage, List<int[]> groups,
                               boolean[] anchored, List<Integer> turnStarts) {
        this.conversation = conversation;
        this.groupOfMessage = groupOfMessage;
        this.groups = groups;
        this.anchored = anchored;
        this.turnStarts = turnStarts;
    }

    /** The layout of {@code conversation}. */
    public static ConversationLayout of(Conversation conversation) {
        int size = conversation.size();
        int[] parent = linkToolPairs(conversation);
        int[] groupOfMessage = new int[size];
        Map<Integer, Integer> groupOfRoot = new HashMap<>();
        List<List<Integer>> members = new ArrayList<>();
        List<Integer> turnStarts = new ArrayList<>();
        for (int index = 0; index < size; index++) {
            int root = find(parent, index);
            Integer group = groupOfRoot.get(root);
            if (group == null) {
                group = members.size();
                groupOfRoot.put(root, group);
                members.add(new ArrayList<>());
            }
            groupOfMessage[index] = group;
            members.get(group).add(index);
            if (conversation.get(index).isPrompt()) {
                turnStarts.add(index);
            }
        }
        List<int[]> groups = new ArrayList<>(members.size());
        boolean[] anchored = new boolean[members.size()];
        for (int group = 0; group < members.size(); group++) {
            int[] indices = members.get(group).stream().mapToInt(Integer::intValue).toArray();
            groups.add(indices);
            for (int index : indices) {
                Message message = conversation.get(index);
                anchored[group] |= message.pinned() || message.role() == Role.SYSTEM;
            }
        }
        return new ConversationLayout(conversation, groupOfMessage, List.copyOf(groups), anchored,
                List.copyOf(turnStarts));
    }

    /** The conversation laid out. */
    public Conversation conversation() {
        return conversation;
    }

    /** How many groups there are. */
    public int groupCount() {
        return groups.size();
    }

    /** The group of the message at {@code index}. */
    public int groupOf(int index) {
        return groupOfMessage[index];
    }

    /** The message indices of {@code group}, ascending. The caller must not modify the array. */
    public int[] members(int group) {
        return groups.get(group);
    }

    /** The last message index of {@code group}. */
    public int lastMember(int group) {
        int[] indices = groups.get(group);
        return indices[indices.length - 1];
    }

    /** Whether {@code group} holds a system or pinned message, and so must always stay. */
    public boolean isAnchored(int group) {
        return anchored[group];
    }

    /** The index of each prompt, ascending: where each turn starts. */
    public List<Integer> turnStarts() {
        return turnStarts;
    }

    /**
     * Where the last {@code turns} turns begin: the conversation's size for 0 turns, and 0 when
     * there are fewer turns than that (everything is recent).
     */
    public int recentStart(int turns) {
        if (turns == 0) {
            return conversation.size();
        }
        return turnStarts.size() < turns ? 0 : turnStarts.get(turnStarts.size() - turns);
    }

    /** The index of the last prompt, or -1 if there is none. */
    public int lastPrompt() {
        return turnStarts.isEmpty() ? -1 : turnStarts.get(turnStarts.size() - 1);
    }

    // Union-find over message indices, joining each tool call with every message that answers it.
    private static int[] linkToolPairs(Conversation conversation) {
        int size = conversation.size();
        int[] parent = new int[size];
        Map<String, Integer> callerOfId = new HashMap<>();
        for (int index = 0; index < size; index++) {
            parent[index] = index;
            for (String id : conversation.get(index).toolUseIds()) {
                callerOfId.putIfAbsent(id, index);
            }
        }
        for (int index = 0; index < size; index++) {
            for (String id : conversation.get(index).toolResultIds()) {
                Integer caller = callerOfId.get(id);
                if (caller != null) {
                    parent[find(parent, index)] = find(parent, caller);
                }
            }
        }
        return parent;
    }

    private static int find(int[] parent, int index) {
        int root = index;
        while (parent[root] != root) {
            root = parent[root];
        }
        while (parent[index] != root) {
            int next = parent[index];
            parent[index] = root;
            index = next;
        }
        return root;
    }
}
