package io.agentfuse.agent.permission;

/**
 * Which denials the {@link PermissionBreaker} counts together towards
 * {@code maxConsecutiveDenials}.
 *
 * <pre>{@code
 * PermissionConfig config = PermissionConfig.builder().scope(PermissionScope.GLOBAL).build();
 * }</pre>
 */
public enum PermissionScope {
    /**
     * Every denial counts towards one streak, whatever the tool, and any approval ends it. When
     * the breaker opens, no category is to blame, so nothing is blocked: every call asks.
     */
    GLOBAL,
    /**
     * Each {@link ToolCategorizer category} has its own streak, ended only by an approval in that
     * category. When the breaker opens, the category that tripped it is denied without asking,
     * and every other call asks. The default.
     */
    CATEGORY
}
