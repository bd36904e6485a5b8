package io.agentfuse.config;

import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The {@code clients:}, {@code budgets:} and {@code models.<m>.price} keys of docs/design.md §11. */
class BudgetConfigTest {

    /** The section's example as the design writes it (keys from the environment). */
    private static final String DESIGN_EXAMPLE = """
            clients:
              team-a: { key: "${TEAM_A_KEY}", tenant: team-a }
              ci-bot: { key: "${CI_BOT_KEY}", tenant: ci }
            budgets:
              per-tenant:
                scope: tenant
                tokens: 2000000
                cost: 50.00
                window: 1d
                onExhausted: reject
              per-session:
                scope: session
                tokens: 500000
                window: 24h
                onExhausted: { fallback: gpt-4o-mini }
            models:
              claude-sonnet-4: { provider: anthropic, price: { input: 3.00, output: 15.00 } }
            """;

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "budgets.yaml", Map.of("TEAM_A_KEY", "sk-team-a-secret", "CI_BOT_KEY", "sk-ci-secret"));
    }

    private static ConfigException errors(String yaml) {
        return catchThrowableOfType(ConfigException.class, () -> parse(yaml));
    }

    @Test
    void theDesignsExampleLoadsAsWritten() {
        AgentfuseConfig config = parse(DESIGN_EXAMPLE);

        assertThat(config.clients()).containsOnlyKeys("team-a", "ci-bot");
        assertThat(config.clients().get("ci-bot").tenant()).isEqualTo("ci");
        assertThat(config.clients().get("team-a").key()).isEqualTo("sk-team-a-secret");
        BudgetConfig tenant = config.budgets().get("per-tenant");
        assertThat(tenant.scope()).isEqualTo(BudgetConfig.Scope.TENANT);
        assertThat(tenant.limit()).isEqualTo(new BudgetLimit(2_000_000, 50_000_000_000L));
        assertThat(tenant.window()).isEqualTo(Duration.ofDays(1));
        assertThat(tenant.fallback()).isEmpty();
        BudgetConfig session = config.budgets().get("per-session");
        assertThat(session.limit()).isEqualTo(BudgetLimit.ofTokens(500_000));
        assertThat(session.window()).isEqualTo(Duration.ofHours(24));
        assertThat(session.fallback()).contains("gpt-4o-mini");
        assertThat(config.model("gpt-4o-mini")).isPresent(); // a family model the budget names
        assertThat(config.model("claude-sonnet-4").orElseThrow().price()).contains(ModelPrice.of("3.00", "15.00")
                .withCache(new BigDecimal("0.3"), new BigDecimal("3.75"), new BigDecimal("6"))); // Anthropic's cache, in proportion
    }

    @Test
    void aClientsKeyNeverAppearsInItsDescription() {
        assertThat(parse(DESIGN_EXAMPLE).clients().get("team-a").toString()).doesNotContain("sk-team-a-secret");
    }

    @Test
    void modelsWithoutAPriceGetTheBuiltInTablesByTheirUpstreamName() {
        AgentfuseConfig config = parse("""
                models:
                  fast: { provider: openai, upstreamModel: gpt-4o-mini-2024-07-18 }
                  local: { provider: openai, upstreamModel: llama-3.1-8b }
                """);

        assertThat(config.model("fast").orElseThrow().price()).contains(ModelPrice.of("0.15", "0.60")
                .withCache(new BigDecimal("0.075"), null, null)); // OpenAI's cached input
        assertThat(config.model("local").orElseThrow().price()).isEmpty();
        assertThat(config.model("gpt-4o-mini").orElseThrow().price()).contains(ModelPrice.of("0.15", "0.60")
                .withCache(new BigDecimal("0.075"), null, null));
    }

    @Test
    void aCostBudgetNeedsThePriceOfEveryConfiguredModel() {
        ConfigException failure = errors("""
                budgets:
                  monthly:
                    scope: global
                    cost: 100
                models:
                  local: { provider: openai, upstreamModel: llama-3.1-8b }
                """);

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("budgets.monthly.cost");
            assertThat(error.line()).isEqualTo(4);
            assertThat(error.message()).contains("models.local").contains("price: { input");
        });
    }

    @Test
    void everyMistakeInABudgetIsReportedWithItsKeyAndLine() {
        ConfigException failure = errors("""
                budgets:
                  no-limit:
                    scope: tenant
                  bad:
                    scope: team
                    tokens: 0
                    window: 500ms
                    onExhausted: { fallback: gtp-4o-mini }
                  worse:
                    tokens: 10
                    onExhausted: retry
                models:
                  gpt-4o-mini: { provider: openai }
                """);

        assertThat(failure.errors()).extracting(ConfigError::path).containsExactly(
                "budgets.no-limit", "budgets.bad.scope", "budgets.bad.tokens", "budgets.bad.window",
                "budgets.bad.onExhausted.fallback", "budgets.worse.scope", "budgets.worse.onExhausted");
        assertThat(failure.getMessage())
                .contains("a budget limits tokens, cost or both")
                .contains("one of tenant, key, session, global")
                .contains("must be >= 1, but was 0")
                .contains("between 1s and 366d, but was \"500ms\"")
                .contains("did you mean \"gpt-4o-mini\"?")
                .contains("scope: is required")
                .contains("must be reject or {fallback: <model>}, but was \"retry\"");
    }

    @Test
    void twoClientsWithOneKeyAreAnErrorThatDoesNotShowTheKey() {
        ConfigException failure = errors("""
                clients:
                  a: { key: "${TEAM_A_KEY}" }
                  b: { key: "${TEAM_A_KEY}" }
                """);

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("clients.b.key");
            assertThat(error.line()).isEqualTo(3);
            assertThat(error.message()).contains("same key as clients.a").doesNotContain("sk-team-a-secret");
        });
    }

    @Test
    void aClientWithoutAKeyOrWithABadNameIsRefused() {
        ConfigException failure = errors("""
                clients:
                  "team a": { key: x }
                  b: { tenant: ci }
                """);

        assertThat(failure.errors()).extracting(ConfigError::path).containsExactly("clients.team a", "clients.b.key");
    }

    @Test
    void aClientsTenantIsItsNameUnlessGiven() {
        assertThat(parse("clients: { ops: { key: k } }").clients().get("ops").tenant()).isEqualTo("ops");
    }

    @Test
    void aPriceNeedsBothItsPartsAsNumbers() {
        ConfigException failure = errors("""
                models:
                  a: { provider: openai, price: { input: 1.5 } }
                  b: { provider: openai, price: { input: -1, output: cheap } }
                """);

        assertThat(failure.errors()).extracting(ConfigError::path).containsExactly(
                "models.a.price.output", "models.b.price.input", "models.b.price.output");
    }

    @Test
    void budgetsOnLossIsReadUnderStateRedisAndDefaultsToShare() {
        assertThat(parse("{}").state().redis().budgetOnLoss()).isEqualTo(BudgetOnLoss.SHARE);
        assertThat(parse("state: { store: redis, redis: { budgetOnLoss: closed } }").state().redis().budgetOnLoss())
                .isEqualTo(BudgetOnLoss.CLOSED);
        assertThat(errors("state: { redis: { budgetOnLoss: shared } }").getMessage())
                .contains("state.redis.budgetOnLoss").contains("did you mean \"share\"?");
        assertThat(parse("{}").state().redis().budgetWait()).isEqualTo(Duration.ofMillis(250));
        assertThat(parse("state: { redis: { budgetWait: 2s } }").state().redis().budgetWait()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aCostWithMoreThanNanoDollarPrecisionStaysExact() {
        AgentfuseConfig config = parse("budgets: { tiny: { scope: global, cost: 0.002 } }");

        assertThat(config.budgets().get("tiny").cost()).contains(new BigDecimal("0.002"));
        assertThat(config.budgets().get("tiny").limit().costNanos()).isEqualTo(2_000_000);
    }
}
