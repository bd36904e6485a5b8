package io.agentfuse.config;

import io.agentfuse.agent.context.ContextConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code context:} section: the context-budget ladder that warns, compacts, snips and
 * finally rejects as a conversation fills the model's context window.
 *
 * <p>Defaults ({@link ConfigDefaults#CONTEXT}) are the seed's: warn at 70 %, auto-compact at
 * 80 %, snip at 92 %, reject at 95 %; no tokens reserved for output; summaries written by
 * {@code claude-haiku-4}; the last 6 turns kept verbatim. The thresholds strictly increase and
 * lie in (0, 1] (compared to a millionth); {@code reserveOutputTokens} is less than every model's
 * context window. A {@code compactModel} given in the file must be a configured model; the
 * default one is used only if it is configured, else {@link #compactModel()} is empty and the
 * ladder degrades to snipping. Immutable and thread-safe.
 *
 * <pre>{@code
 * context:
 *   warnAt: 70%
 *   autoCompactAt: 80%
 *   snipAt: 92%
 *   rejectAt: 95%
 *   reserveOutputTokens: 0
 *   compactModel: claude-haiku-4
 *   keepRecentTurns: 6
 * }</pre>
 *
 * @param warnAt              share of the window from which a warning is given
 * @param autoCompactAt       share from which older turns are summarised
 * @param snipAt              share from which the oldest turns are dropped
 * @param rejectAt            share from which a request is refused
 * @param reserveOutputTokens tokens kept free for the answer ({@code >= 0})
 * @param compactModel        the model that writes summaries, if any
 * @param keepRecentTurns     turns that compaction never touches ({@code >= 0})
 */
public record ContextBudgetConfig(double warnAt, double autoCompactAt, double snipAt, double rejectAt,
                            int reserveOutputTokens, Optional<String> compactModel, int keepRecentTurns) {

    public ContextBudgetConfig {
        Objects.requireNonNull(compactModel, "compactModel");
    }

    /** The agent module's ladder these stand for (everything but {@code compactModel}). */
    public ContextConfig toContextConfig() {
        return ContextConfig.builder()
                .warnAt(warnAt)
                .autoCompactAt(autoCompactAt)
                .snipAt(snipAt)
                .rejectAt(rejectAt)
                .reserveOutputTokens(reserveOutputTokens)
                .keepRecentTurns(keepRecentTurns)
                .build();
    }
}
