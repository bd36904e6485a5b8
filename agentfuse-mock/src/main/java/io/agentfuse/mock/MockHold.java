package io.agentfuse.mock;

import io.vertx.core.Context;

import java.util.ArrayList;
import java.util.List;

/**
 * Answers of a {@link MockProvider} held back until a test lets them go
 * ({@link MockProvider#holdAnswers()}): a call stays under way exactly as long as the test needs,
 * where a scripted delay is a guess that a busy machine can outlast. On {@link #release()} each held
 * answer goes on its request's event loop, in the order they were held; an answer due after the
 * release goes at once.
 *
 * <p>Thread-safe: answers are held on the mock's event loops, and any thread may release them.
 */
public final class MockHold {

    private final List<Runnable> held = new ArrayList<>();
    private boolean released;

    MockHold() {
    }

    /** A hold that holds nothing: what a mock answers through until a test asks for one. */
    static MockHold none() {
        MockHold none = new MockHold();
        none.released = true;
        return none;
    }

    /** Runs {@code answer} on {@code context} once released; at once, on this thread, if released already. */
    void whenReleased(Context context, Runnable answer) {
        synchronized (this) {
            if (!released) {
                held.add(() -> context.runOnContext(ignored -> answer.run()));
                return;
            }
        }
        answer.run();
    }

    /** How many answers wait for the release now. */
    public synchronized int waiting() {
        return held.size();
    }

    /** Lets every held answer go, and those due later through at once. */
    public void release() {
        List<Runnable> due;
        synchronized (this) {
            released = true;
            due = List.copyOf(held);
            held.clear();
        }
        due.forEach(Runnable::run);
    }
}
