package io.agentfuse.gateway.budget;

import io.agentfuse.config.BudgetConfig;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.ModelPrice;

import java.time.Instant;

/**
 * Writes the {@code x-agentfuse-budget} header (docs/design.md §11): one value per budget that
 * applies to a request, what it has left and when its window ends:
 *
 * <pre>
 * x-agentfuse-budget: per-tenant; scope=tenant; remaining=1499200; resets=2026-03-05T00:00:00Z
 * x-agentfuse-budget: per-session; scope=session; remaining=0; resets=2026-03-05T00:00:00Z
 * x-agentfuse-budget: monthly; scope=global; remaining=12.5; resets=2026-03-05T00:00:00Z
 * x-agentfuse-budget: per-key; scope=key; remaining=0; resets=2026-03-05T00:00:00Z; remaining-usd=0.42
 * </pre>
 *
 * {@code remaining} is in tokens, or in USD for a budget that limits cost only; a budget that limits
 * both says {@code remaining-usd} after the contract's four fields, and its {@code remaining} is 0
 * once either part is spent. Names are plain ASCII (the configuration allows nothing else).
 *
 * <p>Stateless and thread-safe.
 */
public final class BudgetHeader {

    /** The header's name. */
    public static final String NAME = "x-agentfuse-budget";

    private BudgetHeader() {
    }

    /** The value for {@code budget}, which has {@code remaining} left of {@code limit} until {@code endMillis}. */
    public static String value(BudgetConfig budget, BudgetLimit limit, BudgetAmount remaining, long endMillis) {
        StringBuilder value = new StringBuilder(96).append(budget.name()).append("; scope=")
                .append(budget.scope().yamlName()).append("; remaining=");
        boolean costSpent = limit.limitsCost() && remaining.costNanos() == 0;
        if (limit.limitsTokens()) {
            value.append(costSpent ? 0 : remaining.tokens());
        } else {
            value.append(ModelPrice.usdOf(remaining.costNanos()));
        }
        value.append("; resets=").append(Instant.ofEpochMilli(endMillis));
        if (limit.limitsTokens() && limit.limitsCost()) {
            value.append("; remaining-usd=").append(ModelPrice.usdOf(remaining.costNanos()));
        }
        return value.toString();
    }
}
