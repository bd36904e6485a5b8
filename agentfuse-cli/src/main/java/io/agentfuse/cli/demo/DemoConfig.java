package io.agentfuse.cli.demo;

import java.util.Locale;

/**
 * The configuration the demo runs the gateway with: the seeds' numbers, divided by the demo's
 * speed so that five minutes of open breaker pass in a few seconds.
 *
 * <p>Every model answers from one mock provider. Each scenario has its own models, so their
 * breakers do not affect one another:
 * <ul>
 *   <li>{@code claude-sonnet-4} → {@code claude-haiku-4} → {@code gpt-4o-mini}: the 5xx storm;</li>
 *   <li>{@code gpt-4o}: 429 with {@code Retry-After};</li>
 *   <li>{@code gpt-4.1} → {@code gpt-4o-mini}: token overuse;</li>
 *   <li>{@code notes-model} (a small window) with {@code compactor} as the compact model: the context ladder;</li>
 *   <li>{@code planner} under two session budgets: 30 000 tokens, then {@code gpt-4o-mini} up to 60 000, then refused.</li>
 * </ul>
 */
final class DemoConfig {

    /** The budget scenario's session: its tokens on the model it asks for, and on any model. */
    static final int SESSION_TOKENS = 30_000;
    static final int SESSION_CAP = 60_000;

    /** The window of the context scenario's model, small so that the demo's conversation fills it quickly. */
    static final int NOTES_WINDOW = 3_000;

    private DemoConfig() {
    }

    /** The YAML for a mock provider on {@code mockPort}, with time divided by {@code speed}. */
    static String yaml(int mockPort, double speed) {
        return """
                server:
                  port: 0
                  adminToken: demo-admin-token
                providers:
                  anthropic: { baseUrl: "http://127.0.0.1:%1$d", apiKey: demo-key }
                  openai:    { baseUrl: "http://127.0.0.1:%1$d/v1", apiKey: demo-key }
                retry:
                  maxAttempts: 4
                  initialDelay: %2$s
                  multiplier: 2
                  maxDelay: %3$s
                  budget: { percent: 20%%, minPerSecond: 10, ttl: 10s }
                breakers:
                  default:
                    consecutive5xx: 3
                    consecutive429: 2
                    tokenOveruse: { maxTokensPerCall: 50000 }
                    resetTimeout: %4$s
                  storm:
                    consecutive5xx: 4        # the 4th failed attempt trips it, after the seed's full 2/4/8 s retries
                    resetTimeout: %4$s
                models:
                  claude-sonnet-4:
                    provider: anthropic
                    upstreamModel: claude-sonnet-4-5
                    fallbacks: [claude-haiku-4, gpt-4o-mini]
                    breaker: storm
                  claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
                  gpt-4o-mini: { provider: openai }
                  gpt-4o: { provider: openai }
                  gpt-4.1:
                    provider: openai
                    fallbacks: [gpt-4o-mini]
                  notes-model: { provider: openai, upstreamModel: gpt-4o, contextWindow: %5$d }
                  compactor: { provider: openai, upstreamModel: gpt-4o-mini, retry: { maxAttempts: 1 } }
                  planner: { provider: openai, upstreamModel: gpt-4o }
                context:
                  compactModel: compactor
                  keepRecentTurns: 2
                budgets:
                  per-session:             # a session's tokens on the model it asks for ...
                    scope: session
                    tokens: %6$d
                    onExhausted: { fallback: gpt-4o-mini }
                  session-cap:             # ... and on any model: the cheaper one takes the rest, then no more
                    scope: session
                    tokens: %7$d
                """.formatted(mockPort, duration(2_000, speed), duration(30_000, speed), duration(300_000, speed),
                NOTES_WINDOW, SESSION_TOKENS, SESSION_CAP);
    }

    /** {@code seedMillis} of seed time as a demo duration, at least one millisecond. */
    static String duration(long seedMillis, double speed) {
        return Math.max(1, Math.round(seedMillis / speed)) + "ms";
    }

    /** {@code realMillis} of demo time shown as seed time, e.g. {@code 6.0 s}. */
    static String seedTime(double realMillis, double speed) {
        double seconds = realMillis * speed / 1000.0;
        return seconds >= 60 ? String.format(Locale.ROOT, "%.1f min", seconds / 60) : String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
