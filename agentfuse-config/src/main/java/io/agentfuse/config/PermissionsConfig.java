package io.agentfuse.config;

import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionScope;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code permissions:} section: the permission-denial breaker that stops auto-approving
 * once the user keeps saying "no".
 *
 * <p>Defaults ({@link ConfigDefaults#PERMISSIONS}): the seed's 3 denials in a row, 20 in a
 * session, counted per tool category, user-led reset only, interactive. {@code maxTotalDenials}
 * is at least {@code maxConsecutiveDenials}. Immutable and thread-safe.
 *
 * <pre>{@code
 * permissions:
 *   maxConsecutiveDenials: 3
 *   maxTotalDenials: 20
 *   scope: category          # global | category
 *   halfOpenAfter: null      # null: only an explicit user approval closes it again; or e.g. 5m
 *   headless: false          # true: no user to ask, so an open breaker aborts the session
 * }</pre>
 *
 * @param maxConsecutiveDenials denials in a row that open the breaker ({@code >= 1})
 * @param maxTotalDenials       denials in a session that open the breaker ({@code >= maxConsecutiveDenials})
 * @param scope                 whether denials are counted per tool category or for all tools
 *                              ({@link PermissionScope}, written in lower case)
 * @param halfOpenAfter         when set, the breaker half-opens on its own after this long
 * @param headless              whether there is no user to ask
 */
public record PermissionsConfig(int maxConsecutiveDenials, int maxTotalDenials, PermissionScope scope,
                                Optional<Duration> halfOpenAfter, boolean headless) {

    public PermissionsConfig {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(halfOpenAfter, "halfOpenAfter");
    }

    /** The agent module's settings of the permission breaker these stand for. */
    public PermissionConfig toPermissionConfig() {
        return PermissionConfig.builder()
                .maxConsecutiveDenials(maxConsecutiveDenials)
                .maxTotalDenials(maxTotalDenials)
                .scope(scope)
                .halfOpenAfter(halfOpenAfter.orElse(null))
                .headless(headless)
                .build();
    }
}
