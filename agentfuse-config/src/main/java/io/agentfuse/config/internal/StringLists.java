package io.agentfuse.config.internal;

import io.agentfuse.config.internal.Node.ListNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Reads a key whose value is a list of strings ({@code server.allowedHosts}, {@code mcp.aggregate}). */
final class StringLists {

    private StringLists() {
    }

    /**
     * The strings under {@code key} of {@code section}, each checked by {@code problem} (null when
     * fine); wrong entries are reported where they are written and left out. Empty when not written.
     */
    static List<String> read(MapReader section, String key, Function<String, String> problem) {
        Optional<Node> node = section.find(key);
        if (node.isEmpty() || MapReader.isNull(node.get())) {
            return List.of();
        }
        if (!(node.get() instanceof ListNode list)) {
            section.error(key, "must be a list of strings, but was " + node.get().describe());
            return List.of();
        }
        var values = new ArrayList<String>();
        for (Node item : list.items()) {
            String text = item instanceof ScalarNode scalar && !scalar.isNull() ? scalar.text().strip() : null;
            String wrong = text == null ? "must be a string, but was " + item.describe() : problem.apply(text);
            if (wrong != null) {
                section.problems().add(item, wrong);
            } else {
                values.add(text);
            }
        }
        return List.copyOf(values);
    }
}
