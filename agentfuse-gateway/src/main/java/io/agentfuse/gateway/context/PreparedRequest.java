package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.pipeline.ContextReport;

/**
 * A request that passed the context ladder for one target model: as it goes upstream (compacted
 * when it had to be), with the level it arrived at and what was done.
 *
 * @param request the request to send
 * @param level   the ladder level of the request as it arrived
 * @param report  the compaction report, or {@code null} when nothing had to be done
 */
public record PreparedRequest(ChatRequest request, ContextLevel level, CompactionReport report) {

    /** The report of a request that went as it came, per level: made once, not per request. */
    private static final ContextReport[] AS_IT_CAME = new ContextReport[ContextLevel.values().length];

    static {
        for (ContextLevel level : ContextLevel.values()) {
            AS_IT_CAME[level.ordinal()] = new ContextReport(level.name(), null);
        }
    }

    /**
     * What the gateway reports of this request: the level ({@code x-agentfuse-context}) and, when
     * the request was compacted, how and with what effect ({@code x-agentfuse-compaction}), e.g.
     * {@code action=SNIP; summary=FAILED; tokens=171200->139020; dropped=14}.
     */
    public ContextReport contextReport() {
        if (report == null || report.strategy() == CompactionStrategy.NONE) {
            return AS_IT_CAME[level.ordinal()];
        }
        return new ContextReport(level.name(), "action=" + report.strategy() + "; summary=" + report.summary()
                + "; tokens=" + report.tokensBefore() + "->" + report.tokensAfter()
                + (report.messagesDropped() > 0 ? "; dropped=" + report.messagesDropped() : ""));
    }
}
