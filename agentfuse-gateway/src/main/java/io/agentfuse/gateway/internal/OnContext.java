package io.agentfuse.gateway.internal;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.function.Consumer;

/**
 * Runs an action on a given Vert.x context: at once when the current thread is already on it,
 * else queued to it. The one place for this hop, so that state confined to a context (a call, a
 * stream, a subscriber, a request) is only ever touched there and needs no locks.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * OnContext.run(call.context(), () -> call.cancel());
 * OnContext.run(request.context(), this::relay, bug -> endWithError(bug));
 * }</pre>
 */
public final class OnContext {

    private OnContext() {
    }

    /** Runs {@code action} on {@code context}. */
    public static void run(Context context, Runnable action) {
        if (isOn(context)) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    /**
     * Whether the current thread runs {@code context}'s tasks. The current context alone does not
     * tell: blocking code that an event-loop context hands to a worker pool sees that context as
     * current, on a worker thread, where state confined to the context must not be touched.
     */
    private static boolean isOn(Context context) {
        return Vertx.currentContext() == context && (!context.isEventLoopContext() || Context.isOnEventLoopThread());
    }

    /**
     * Runs {@code action} on {@code context}; a {@link RuntimeException} or an {@link Error} (the heap
     * ran out, say) it throws goes to {@code onBug}, so that a fault in a callback still ends the
     * response it was serving instead of leaving the caller waiting.
     */
    public static void run(Context context, Runnable action, Consumer<Throwable> onBug) {
        run(context, () -> {
            try {
                action.run();
            } catch (RuntimeException | Error bug) {
                onBug.accept(bug);
            }
        });
    }
}
