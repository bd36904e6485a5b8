package io.agentfuse.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code subagents:} section: limits for requests that carry the
 * {@code x-agentfuse-subagent} header, and for library subagent guards. This is the seed's
 * first OpenClaw block, and it loads as written.
 *
 * <p>Defaults ({@link ConfigDefaults#SUBAGENTS}): the seed's {@code maxConcurrent: 5} and
 * {@code defaultTimeout: 120} (seconds), no fallbacks. Immutable and thread-safe.
 *
 * <pre>{@code
 * subagents:
 *   maxConcurrent: 5
 *   defaultTimeout: 120      # a bare number is seconds
 *   fallbacks:
 *     - "claude-haiku-4"
 *     - "gpt-4o-mini"
 *     - null                 # give up; nothing after null is tried
 * }</pre>
 *
 * @param maxConcurrent  subagent calls in flight at most ({@code >= 1})
 * @param defaultTimeout time limit of a subagent call ({@code > 0})
 * @param fallbacks      models tried in order when the requested model has no fallbacks of its own
 */
public record SubagentsConfig(int maxConcurrent, Duration defaultTimeout, List<String> fallbacks) {

    public SubagentsConfig {
        Objects.requireNonNull(defaultTimeout, "defaultTimeout");
        fallbacks = List.copyOf(fallbacks);
    }
}
