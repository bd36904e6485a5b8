package io.agentfuse.gateway.pipeline;

import java.util.Objects;

/**
 * What the context stage reports about a request: its ladder level, for
 * {@code x-agentfuse-context}, and when it compacted the request, how and with what effect, for
 * {@code x-agentfuse-compaction}.
 *
 * <pre>{@code
 * new ContextReport("AUTO_COMPACT", "action=SNIP; summary=FAILED; tokens=171200->139020; dropped=14");
 * }</pre>
 *
 * @param level      the ladder level the request arrived at, e.g. {@code WARNING}
 * @param compaction what compaction did, or {@code null} when the request went as it came
 */
public record ContextReport(String level, String compaction) {

    public ContextReport {
        Objects.requireNonNull(level, "level");
    }
}
