package io.agentfuse.config.internal;

import io.agentfuse.config.internal.Node.ListNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@code fallbacks:} list (a model's, or the subagents'): model names in order,
 * optionally ended by {@code null}, the seed's "give up". Checks that each name is a configured
 * model or one of a built-in provider's family that is not a typo ({@link FamilyNames}), that none
 * repeats or names the model itself, and that nothing follows {@code null}.
 */
final class FallbackBinder {

    private FallbackBinder() {
    }

    /**
     * @param models the names of all configured models
     * @param self   the model whose fallbacks these are, if any
     */
    static List<String> read(MapReader section, Set<String> models, Optional<String> self) {
        Optional<Node> node = section.find("fallbacks");
        if (node.isEmpty() || MapReader.isNull(node.get())) {
            return List.of();
        }
        if (!(node.get() instanceof ListNode list)) {
            section.error("fallbacks", "must be a list of model names like [claude-haiku-4, null], but was "
                    + node.get().describe());
            return List.of();
        }
        var fallbacks = new ArrayList<String>();
        Node giveUp = null;
        for (Node item : list.items()) {
            if (giveUp != null) {
                section.problems().add(item, "nothing after null is tried (null at line " + giveUp.location().line()
                        + " gives up); remove this entry or move null to the end");
            } else if (MapReader.isNull(item)) {
                giveUp = item;
            } else if (!(item instanceof ScalarNode name)) {
                section.problems().add(item, "must be a model name or null, but was " + item.describe());
            } else if (self.filter(name.text()::equals).isPresent()) {
                section.problems().add(item, "a model cannot fall back to itself");
            } else if (!FamilyNames.accept(item, name.text(), models, section.problems())) {
                continue; // reported: no family, or a typo of a known name
            } else if (fallbacks.contains(name.text())) {
                section.problems().add(item, "\"" + name.text() + "\" is already in the list");
            } else {
                fallbacks.add(name.text());
            }
        }
        return List.copyOf(fallbacks);
    }
}
