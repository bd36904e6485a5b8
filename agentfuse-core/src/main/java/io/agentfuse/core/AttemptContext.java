package io.agentfuse.core;

/**
 * What a guarded call knows about the attempt it is making, handed to the call by the forms of
 * {@link Guard#execute(Deadline, AttemptObserver, java.util.function.Function)} and
 * {@link Guard#executeAsync(Deadline, AttemptObserver, java.util.function.Function)} that take one:
 * which attempt it is, whether it is a hedge, how much time it has, and the one signal a call
 * gives back before it ends, {@link #firstContent()}.
 *
 * <p>{@code firstContent()} is for calls whose answer arrives in parts (a stream): the first
 * content, not the end of the call, is what a hedge races for and what the step's
 * {@link LatencyEstimate} measures. Once an attempt signals it, it has won any hedge race (the
 * other attempt is cancelled and released), and the call then ends as it ends: its completion
 * (or failure) is recorded as usual. A call that never signals it is judged by its completion.
 *
 * <p>Thread-safe: the signal may come from any thread, any number of times; only the first counts.
 *
 * <pre>{@code
 * guard.executeAsync(deadline, null, attempt -> {
 *     Duration budget = Duration.ofNanos(attempt.timeLeftNanos());     // for the HTTP client's own timeout
 *     return client.stream(request, budget, firstChunk -> attempt.firstContent());
 * });
 * }</pre>
 */
public interface AttemptContext {

    /** The attempt's number: 1 for the first, 2 for the first retry…; a hedge has the number of the attempt it races. */
    int attempt();

    /** Whether this attempt was started as a hedge beside a slower one. */
    boolean isHedge();

    /**
     * The time this attempt has left before its limit (its timeout, cut to the request's
     * deadline), never negative; {@link Long#MAX_VALUE} when it has neither.
     */
    long timeLeftNanos();

    /** The request's deadline ({@link Deadline#none()} without one). */
    Deadline deadline();

    /** The first content of the answer arrived: any hedge race is won by this attempt. */
    void firstContent();
}
