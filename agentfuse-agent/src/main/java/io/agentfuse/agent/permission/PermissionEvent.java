package io.agentfuse.agent.permission;

/**
 * A change of a {@link PermissionBreaker}: a state transition, or one more category blocked while
 * already open ({@code from == to == OPEN}). Immutable.
 *
 * <pre>{@code
 * breaker.addListener(event -> log.info("permissions {} -> {}: {}", event.from(), event.to(), event.reason()));
 * }</pre>
 *
 * @param from               the state before
 * @param to                 the state after
 * @param category           the category of the call that caused it, or null for a timed half-open
 *                           or an operator reset
 * @param reason             why, in words
 * @param consecutiveDenials denials in a row in the call's scope bucket, after the change
 * @param totalDenials       denials in the session, after the change
 * @param epochMillis        when, by the breaker's clock
 */
public record PermissionEvent(PermissionState from, PermissionState to, String category, String reason,
                              int consecutiveDenials, int totalDenials, long epochMillis) {
}
