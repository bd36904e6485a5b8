package io.agentfuse.core;

/**
 * A result whose call goes on after the guard returns it: a stream that has produced its first
 * event and may still break. The guard does not record such a result as a success; it hands the
 * breaker's permit to the result's {@link HeldPermit} instead, and the result reports the call's
 * end there (finished with its tokens, broken, or released), so a stream counts once, with its
 * whole duration and usage, and a provider whose streams always break mid-way trips its breaker
 * (docs/design.md §3). An ordinary result answers {@code null}.
 *
 * <pre>{@code
 * record Answer(Stream stream, HeldPermit permit) implements LongCall {
 *     public HeldPermit heldPermit() {
 *         return stream == null ? null : permit;   // a complete answer: the guard records it
 *     }
 * }
 * }</pre>
 */
public interface LongCall {

    /**
     * The permit this result will report exactly one end with, or {@code null} to let the guard
     * record it now as it records any other result.
     */
    HeldPermit heldPermit();
}
