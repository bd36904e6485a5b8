package io.agentfuse.config;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What {@link AgentfuseRuntime#reload} did to the breakers it manages ({@code model:*} and
 * {@code tool:*}), by name, sorted.
 *
 * <pre>{@code
 * ReloadReport report = runtime.reload(ConfigLoader.load(file));
 * log.info("kept {} breakers, replaced {}", report.kept().size(), report.replaced());
 * }</pre>
 *
 * @param added    breakers that did not exist before
 * @param kept     breakers whose settings did not change: their state (open, counts) carried over
 * @param replaced breakers whose settings changed: they start afresh, CLOSED
 * @param removed  breakers of models, servers or tools no longer configured
 */
public record ReloadReport(List<String> added, List<String> kept, List<String> replaced, List<String> removed) {

    public ReloadReport {
        added = List.copyOf(added);
        kept = List.copyOf(kept);
        replaced = List.copyOf(replaced);
        removed = List.copyOf(removed);
    }

    /** This report with {@code names} moved to {@link #removed()}, from whichever list held them. */
    ReloadReport withRemoved(Collection<String> names) {
        if (names.isEmpty()) {
            return this;
        }
        Predicate<String> stays = name -> !names.contains(name);
        var allRemoved = new TreeSet<>(removed);
        allRemoved.addAll(names);
        return new ReloadReport(added.stream().filter(stays).toList(), kept.stream().filter(stays).toList(),
                replaced.stream().filter(stays).toList(), List.copyOf(allRemoved));
    }
}
