package io.agentfuse.gateway.pipeline;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.function.Consumer;

/**
 * Runs a request's callbacks on the request's own context — at once when already there — and
 * hands anything they throw to a fallback, so that a bug in one callback still ends the response
 * instead of leaving the caller waiting.
 *
 * <p>Stateless and thread-safe.
 */
final class EventLoop {

    private EventLoop() {
    }

    /** Runs {@code action} on {@code context}; a {@link RuntimeException} it throws goes to {@code onBug}. */
    static void run(Context context, Runnable action, Consumer<RuntimeException> onBug) {
        Runnable guarded = () -> {
            try {
                action.run();
            } catch (RuntimeException bug) {
                onBug.accept(bug);
            }
        };
        if (Vertx.currentContext() == context) {
            guarded.run();
        } else {
            context.runOnContext(v -> guarded.run());
        }
    }
}
