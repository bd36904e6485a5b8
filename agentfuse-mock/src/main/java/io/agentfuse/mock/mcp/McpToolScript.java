package io.agentfuse.mock.mcp;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tools of a {@link MockMcpServer} and, per tool, its queue of scripted steps and the step
 * that answers once the queue is empty. A step with {@code times: n} answers n calls.
 * Thread-safe: all methods synchronize on the script.
 */
final class McpToolScript {

    private static final McpToolStep SUCCESS = McpToolStep.builder().build();

    private final Map<String, McpMockTool> tools = new LinkedHashMap<>();
    private final Map<String, Deque<Remaining>> queues = new HashMap<>();
    private final Map<String, McpToolStep> defaults = new HashMap<>();

    synchronized void tools(List<McpMockTool> replacement) {
        tools.clear();
        replacement.forEach(tool -> tools.put(tool.name(), tool));
    }

    synchronized List<McpMockTool> tools() {
        return List.copyOf(tools.values());
    }

    synchronized boolean has(String tool) {
        return tools.containsKey(tool);
    }

    synchronized void append(String tool, List<McpToolStep> steps) {
        Deque<Remaining> queue = queues.computeIfAbsent(Objects.requireNonNull(tool, "tool"), key -> new ArrayDeque<>());
        steps.forEach(step -> queue.addLast(new Remaining(Objects.requireNonNull(step, "step"), step.times())));
    }

    synchronized void defaultStep(String tool, McpToolStep step) {
        defaults.put(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(step, "step"));
    }

    /** Takes the step that answers the next call of {@code tool}. */
    synchronized McpToolStep next(String tool) {
        Deque<Remaining> queue = queues.get(tool);
        if (queue != null && !queue.isEmpty()) {
            Remaining head = queue.peekFirst();
            if (--head.left == 0) {
                queue.removeFirst();
            }
            return head.step;
        }
        return defaults.getOrDefault(tool, SUCCESS);
    }

    synchronized int pending() {
        return queues.values().stream().flatMap(Deque::stream).mapToInt(remaining -> remaining.left).sum();
    }

    /** Forgets the scripts and defaults; the tools stay listed. */
    synchronized void reset() {
        queues.clear();
        defaults.clear();
    }

    private static final class Remaining {
        final McpToolStep step;
        int left;

        Remaining(McpToolStep step, int left) {
            this.step = step;
            this.left = left;
        }
    }
}
