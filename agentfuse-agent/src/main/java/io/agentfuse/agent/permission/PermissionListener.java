package io.agentfuse.agent.permission;

/**
 * Hears every {@link PermissionEvent} of a {@link PermissionBreaker}, on the thread that caused
 * it, after the breaker's lock is released: it may call the breaker back. It should be quick, and
 * what it throws is caught and ignored so that it cannot break the session.
 *
 * <pre>{@code
 * breaker.addListener(event -> {
 *     if (event.to() == PermissionState.OPEN) { ui.showBanner(event.reason()); }
 * });
 * }</pre>
 */
@FunctionalInterface
public interface PermissionListener {

    /** Called once per event. */
    void onEvent(PermissionEvent event);
}
