package io.agentfuse.agent.permission;

/**
 * The permission breaker is open in headless mode: calls now need a user's confirmation and there
 * is no user to ask, so the session must stop. Immutable.
 *
 * <pre>{@code
 * try { breaker.decide(call); }
 * catch (PermissionBreakerOpenException aborted) { exitWithError(aborted.getMessage()); }
 * }</pre>
 */
public class PermissionBreakerOpenException extends RuntimeException {

    private final String category;

    /**
     * @param category the category of the call that was being decided
     * @param reason   why the breaker opened
     */
    public PermissionBreakerOpenException(String category, String reason) {
        super("permission breaker open (" + reason + ") and no user to confirm " + category
                + " in headless mode: aborting the session");
        this.category = category;
    }

    /** The category of the call that was being decided. */
    public String category() {
        return category;
    }
}
