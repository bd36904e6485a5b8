package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.gateway.dialect.ChatRequest;

/**
 * A request that passed the context ladder for one target model: as it goes upstream (compacted
 * when it had to be), with the level it arrived at and what was done.
 *
 * @param request the request to send
 * @param level   the ladder level of the request as it arrived
 * @param report  the compaction report, or {@code null} when nothing had to be done
 */
public record PreparedRequest(ChatRequest request, ContextLevel level, CompactionReport report) {

    /**
     * The value of the {@code x-agentfuse-context} header: the level, and when the request was
     * compacted, how and with what effect, e.g.
     * {@code AUTO_COMPACT; action=SNIP; summary=FAILED; tokens=171200->139020; dropped=14}.
     */
    public String header() {
        if (report == null || report.strategy() == CompactionStrategy.NONE) {
            return level.name();
        }
        return level + "; action=" + report.strategy() + "; summary=" + report.summary()
                + "; tokens=" + report.tokensBefore() + "->" + report.tokensAfter()
                + (report.messagesDropped() > 0 ? "; dropped=" + report.messagesDropped() : "");
    }
}
