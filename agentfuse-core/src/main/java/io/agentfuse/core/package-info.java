/**
 * The vocabulary every pattern shares, and the one object that composes them.
 *
 * <ul>
 *   <li>{@link io.agentfuse.core.Outcome} is how a call ended; {@link io.agentfuse.core.OutcomeClassifier}
 *       is the one place that maps exceptions, HTTP statuses and results to it.</li>
 *   <li>{@link io.agentfuse.core.Clock}, {@link io.agentfuse.core.Scheduler} and
 *       {@link io.agentfuse.core.Sleeper} are the only sources of time and waiting; tests inject
 *       {@link io.agentfuse.core.ManualClock} and never sleep.</li>
 *   <li>{@link io.agentfuse.core.HttpStatusException} and {@link io.agentfuse.core.RetryAfter} carry
 *       an HTTP failure and its server hint to every pattern alike.</li>
 *   <li>{@link io.agentfuse.core.Guard} composes retry, hedging, breaker, bulkhead and timeout in
 *       one documented order, with the same decisions on its synchronous and asynchronous paths.</li>
 *   <li>{@link io.agentfuse.core.Deadline} bounds one request across its attempts, waits and
 *       fallback steps; {@link io.agentfuse.core.LatencyEstimate} is a step's recent time to first
 *       result, by which it is judged to fit; {@link io.agentfuse.core.AttemptContext} is what a
 *       call knows of its attempt (its time left) and how it signals its first content.</li>
 * </ul>
 *
 * The patterns live one per package below: {@code breaker}, {@code retry}, {@code hedge},
 * {@code fallback}, {@code bulkhead}, {@code timeout}; {@code event} holds the listener types,
 * {@code internal} what is not API.
 */
package io.agentfuse.core;
