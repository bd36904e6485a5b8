package io.agentfuse.agent.context;

import static io.agentfuse.agent.context.ConversationFixtures.CHARACTERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** What snipping guarantees for any conversation and any target. */
class SnipperPropertyTest {

    private final Snipper snipper = new Snipper(CHARACTERS);

    @Property
    void neverSplitsAToolCallFromItsResults(@ForAll("conversations") Conversation conversation,
                                            @ForAll @LongRange(max = 3_000) long target) {
        Conversation snipped = snipper.snip(conversation, target).conversation();

        Map<String, Long> callsBefore = count(conversation, Message::toolUseIds);
        Map<String, Long> resultsBefore = count(conversation, Message::toolResultIds);
        Map<String, Long> callsAfter = count(snipped, Message::toolUseIds);
        Map<String, Long> resultsAfter = count(snipped, Message::toolResultIds);
        callsAfter.keySet().forEach(id -> assertThat(resultsAfter.get(id)).as("results of " + id).isEqualTo(resultsBefore.get(id)));
        resultsAfter.keySet().forEach(id -> assertThat(callsAfter.get(id)).as("call of " + id).isEqualTo(callsBefore.get(id)));
    }

    @Property
    void neverDropsSystemOrPinnedMessages(@ForAll("conversations") Conversation conversation,
                                          @ForAll @LongRange(max = 3_000) long target) {
        Conversation snipped = snipper.snip(conversation, target).conversation();

        assertThat(systemOrPinned(snipped)).containsExactlyElementsOf(systemOrPinned(conversation));
    }

    @Property
    void keepsTheRestInOrderAndLeavesOneMarkerCountingWhatWent(@ForAll("conversations") Conversation conversation,
                                                             @ForAll @LongRange(max = 3_000) long target) {
        Snipper.Result result = snipper.snip(conversation, target);

        List<Message> kept = new ArrayList<>(result.conversation().messages());
        if (result.messagesDropped() > 0) {
            assertThat(kept.remove(Snipper.marker(result.messagesDropped()))).isTrue();
        }
        assertThat(isOrderedSubsequence(kept, conversation.messages())).isTrue();
        assertThat(kept).hasSize(conversation.size() - result.messagesDropped());
        assertThat(result.tokens()).isEqualTo(CHARACTERS.countConversation(result.conversation()));
    }

    @Property
    void endsBelowTheTargetWheneverThatIsPossible(@ForAll("conversations") Conversation conversation,
                                                  @ForAll @LongRange(max = 3_000) long target) {
        Snipper.Result result = snipper.snip(conversation, target);

        if (smallestPossibleTokens(conversation) < target) {
            assertThat(result.tokens()).isLessThan(target);
        } else if (result.conversation() != conversation) {
            // Impossible, but dropping helps: everything that may go has gone.
            List<Message> left = new ArrayList<>(result.conversation().messages());
            left.remove(Snipper.marker(result.messagesDropped()));
            Set<Message> stay = mustStay(conversation);
            assertThat(left).containsExactlyElementsOf(conversation.messages().stream().filter(stay::contains).toList());
        }
    }

    @Property
    void neverReturnsMoreTokensThanItWasGiven(@ForAll("conversations") Conversation conversation,
                                              @ForAll @LongRange(max = 3_000) long target) {
        Snipper.Result result = snipper.snip(conversation, target);

        assertThat(result.tokens()).isLessThanOrEqualTo(CHARACTERS.countConversation(conversation));
    }

    @Property
    void returnsTheSameInstanceWhenAlreadyBelowTheTarget(@ForAll("conversations") Conversation conversation) {
        long target = CHARACTERS.countConversation(conversation) + 1;

        assertThat(snipper.snip(conversation, target).conversation()).isSameAs(conversation);
    }

    // The oracle: system and pinned messages, the last prompt and the last message must stay,
    // and so must every message tied to one of them by a tool id; everything else may go.
    private static Set<Message> mustStay(Conversation conversation) {
        Set<Message> stay = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Message> messages = conversation.messages();
        for (Message message : messages) {
            if (message.role() == Role.SYSTEM || message.pinned()) {
                stay.add(message);
            }
        }
        if (!messages.isEmpty()) {
            stay.add(messages.get(messages.size() - 1));
        }
        messages.stream().filter(Message::isPrompt).reduce((first, second) -> second).ifPresent(stay::add);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Message message : messages) {
                if (!stay.contains(message) && stay.stream().anyMatch(kept -> tied(kept, message))) {
                    grew = stay.add(message) || grew;
                }
            }
        }
        return stay;
    }

    private static boolean tied(Message a, Message b) {
        return a.toolUseIds().stream().anyMatch(b.toolResultIds()::contains)
                || b.toolUseIds().stream().anyMatch(a.toolResultIds()::contains);
    }

    // Fewest tokens any choice of drops reaches: dropping all that may go, or nothing. (Each
    // message costs more than a longer count in the marker, so dropping fewer never does better.)
    private static long smallestPossibleTokens(Conversation conversation) {
        Set<Message> stay = mustStay(conversation);
        List<Message> smallest = conversation.messages().stream().filter(stay::contains).collect(Collectors.toList());
        int dropped = conversation.size() - smallest.size();
        if (dropped > 0) {
            smallest.add(Snipper.marker(dropped));
        }
        return Math.min(CHARACTERS.countConversation(conversation), CHARACTERS.countConversation(new Conversation(smallest)));
    }

    private static List<Message> systemOrPinned(Conversation conversation) {
        return conversation.messages().stream().filter(m -> m.role() == Role.SYSTEM || m.pinned()).toList();
    }

    private static boolean isOrderedSubsequence(List<Message> part, List<Message> whole) {
        int next = 0;
        for (Message message : whole) {
            if (next < part.size() && part.get(next) == message) {
                next++;
            }
        }
        return next == part.size();
    }

    private static Map<String, Long> count(Conversation conversation,
                                           Function<Message, List<String>> ids) {
        return conversation.messages().stream().flatMap(m -> ids.apply(m).stream())
                .collect(Collectors.groupingBy(id -> id, Collectors.counting()));
    }

    @Provide
    Arbitrary<Conversation> conversations() {
        Arbitrary<Segment> segment = Combinators.combine(
                Arbitraries.integers().between(0, 9),
                Arbitraries.integers().between(0, 150),
                Arbitraries.integers().between(0, 9).map(roll -> roll == 0),
                Arbitraries.integers().between(1, 3),
                Arbitraries.of(true, false)).as(Segment::new);
        return segment.list().ofMaxSize(30).map(SnipperPropertyTest::build);
    }

    /** One piece of a generated conversation: a system prompt, a prompt, an answer or a tool exchange. */
    private record Segment(int kind, int length, boolean pinned, int calls, boolean openAiStyle) {
    }

    private static Conversation build(List<Segment> segments) {
        List<Message> messages = new ArrayList<>();
        int nextId = 0;
        for (Segment segment : segments) {
            String text = "m" + messages.size() + "x".repeat(segment.length());
            if (segment.kind() == 0) {
                messages.add(message(Role.SYSTEM, false, new TextBlock(text)));
            } else if (segment.kind() <= 3) {
                messages.add(message(Role.USER, segment.pinned(), new TextBlock(text)));
            } else if (segment.kind() <= 5) {
                messages.add(message(Role.ASSISTANT, segment.pinned(), new TextBlock(text)));
            } else {
                List<ContentBlock> calls = new ArrayList<>();
                List<ContentBlock> results = new ArrayList<>();
                for (int call = 0; call < segment.calls(); call++) {
                    String id = "t" + nextId++;
                    calls.add(new ToolUseBlock(id, "Bash", "{\"command\":\"" + text + "\"}"));
                    results.add(new ToolResultBlock(id, text, false));
                }
                messages.add(new Message(Role.ASSISTANT, calls, segment.pinned() && segment.kind() == 6, Map.of()));
                boolean pinResult = segment.pinned() && segment.kind() == 7;
                if (segment.openAiStyle()) {
                    results.forEach(result -> messages.add(message(Role.TOOL, pinResult, result)));
                } else {
                    messages.add(new Message(Role.USER, results, pinResult, Map.of()));
                }
            }
        }
        return new Conversation(messages);
    }

    private static Message message(Role role, boolean pinned, ContentBlock block) {
        return new Message(role, List.of(block), pinned, Map.of());
    }
}
