package io.agentfuse.mock;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The queues of scripted steps of a {@link MockProvider}, and the answer used when they run out.
 *
 * <p>Steps can be queued for one model name, for one path, or for any request. A request takes
 * the next step of the most specific non-empty queue: its model's, then its path's, then the
 * shared one; when all are empty it gets the default step. A step with {@code times: n} answers
 * n requests before it is used up.
 *
 * <p>Thread-safe: all methods synchronize on the script.
 */
final class MockScript {

    private static final String ANY = "*";

    private final Map<String, Deque<Remaining>> queues = new HashMap<>();
    private MockStep defaultStep = MockStep.builder().build();

    /** Appends {@code steps} to the queue for {@code model} (or {@code path}, or any request when both are null). */
    synchronized void append(String model, String path, List<MockStep> steps) {
        Deque<Remaining> queue = queues.computeIfAbsent(key(model, path), k -> new ArrayDeque<>());
        for (MockStep step : steps) {
            queue.addLast(new Remaining(Objects.requireNonNull(step, "step"), step.times()));
        }
    }

    /** Replaces the answer given when the script is exhausted. */
    synchronized void defaultStep(MockStep step) {
        defaultStep = Objects.requireNonNull(step, "step");
    }

    /** Takes the step that answers a request for {@code model} on {@code path}. */
    synchronized MockStep next(String model, String path) {
        for (String key : new String[] {model == null ? null : "model:" + model, "path:" + path, ANY}) {
            Deque<Remaining> queue = key == null ? null : queues.get(key);
            if (queue != null && !queue.isEmpty()) {
                Remaining head = queue.peekFirst();
                if (--head.left == 0) {
                    queue.removeFirst();
                }
                return head.step;
            }
        }
        return defaultStep;
    }

    /** Steps still queued, over all queues (a step with {@code times: n} counts n times). */
    synchronized int pending() {
        return queues.values().stream().flatMap(Deque::stream).mapToInt(r -> r.left).sum();
    }

    /** Empties every queue and restores the built-in default answer. */
    synchronized void reset() {
        queues.clear();
        defaultStep = MockStep.builder().build();
    }

    private static String key(String model, String path) {
        if (model != null) {
            return "model:" + model;
        }
        return path != null ? "path:" + path : ANY;
    }

    private static final class Remaining {
        final MockStep step;
        int left;

        Remaining(MockStep step, int left) {
            this.step = step;
            this.left = left;
        }
    }
}
