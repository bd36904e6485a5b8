package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.hedge.HedgePolicy;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code models.<m>.deadline} and {@code models.<m>.hedge} (docs/design.md §13): read with their
 * defaults, refused with key path and line when impossible, and handed to the gateway by the
 * runtime (a deadline per request, a hedge policy with the model's own budget).
 */
class DeadlineAndHedgeConfigTest {

    private static final String PROVIDER = "providers: { anthropic: {} }";

    private final ManualClock clock = new ManualClock();

    @Test
    void aModelHasNeitherDeadlineNorHedgeUnlessItSaysSo() {
        ModelConfig model = model("    provider: anthropic");

        assertThat(model.deadline()).isEmpty();
        assertThat(model.hedge()).isEmpty();
    }

    @Test
    void aDeadlineIsADurationAndABareNumberIsSeconds() {
        assertThat(model("    provider: anthropic", "    deadline: 90s").deadline()).hasValue(Duration.ofSeconds(90));
        assertThat(model("    provider: anthropic", "    deadline: 30").deadline()).hasValue(Duration.ofSeconds(30));
        assertThat(model("    provider: anthropic", "    deadline: null").deadline()).isEmpty();
    }

    @Test
    void aHedgeTakesAFixedDelayOrAPercentileAndAShare() {
        HedgeConfig fixed = model("    provider: anthropic", "    hedge: { after: 2s, maxShare: 15% }").hedge().orElseThrow();
        HedgeConfig adaptive = model("    provider: anthropic", "    hedge: { after: p90 }").hedge().orElseThrow();

        assertThat(fixed).isEqualTo(HedgeConfig.after(Duration.ofSeconds(2), 0.15));
        assertThat(fixed.describeAfter()).isEqualTo("2s");
        assertThat(adaptive).isEqualTo(HedgeConfig.afterQuantile(0.90, 0.10));
        assertThat(adaptive.describeAfter()).isEqualTo("p90");
    }

    @Test
    void aHedgeWithoutKeysIsTheDefaultAndOffIsNone() {
        assertThat(model("    provider: anthropic", "    hedge: {}").hedge()).hasValue(ConfigDefaults.HEDGE);
        assertThat(ConfigDefaults.HEDGE.describeAfter()).isEqualTo("p95");
        assertThat(ConfigDefaults.HEDGE.maxShare()).isEqualTo(0.10);
        assertThat(model("    provider: anthropic", "    hedge: off").hedge()).isEmpty();
    }

    record Case(String name, String[] lines, String path, int line, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> mistakes() {
        return Stream.of(
                new Case("a zero deadline", new String[] {"    deadline: 0s"}, "models.a.deadline", 5,
                        "must be > 0, but was \"0s\""),
                new Case("a deadline that is no duration", new String[] {"    deadline: soon"}, "models.a.deadline", 5,
                        "must be a duration like 250ms, 30s, 5m or 1h, but was \"soon\""),
                new Case("a hedge delay that is neither", new String[] {"    hedge: { after: fast }"}, "models.a.hedge.after", 5,
                        "must be a duration like 2s, or a percentile of recent latency like p95, but was \"fast\""),
                new Case("a percentile below the median", new String[] {"    hedge: { after: p20 }"}, "models.a.hedge.after", 5,
                        "must be a percentile from p50 to p99, but was \"p20\""),
                new Case("a hedge delay as long as the timeout", new String[] {"    timeout: 30s", "    hedge: { after: 30s }"},
                        "models.a.hedge.after", 6, "must be less than the model's timeout (30s) to ever start a hedge, but was 30s"),
                new Case("a hedge delay past the deadline", new String[] {"    deadline: 5s", "    hedge: { after: 8s }"},
                        "models.a.hedge.after", 6, "must be less than the model's deadline (5s) to ever start a hedge, but was 8s"),
                new Case("a share of nothing", new String[] {"    hedge: { maxShare: 0% }"}, "models.a.hedge.maxShare", 5,
                        "must be more than 0% and at most 100%"),
                new Case("a share above the whole", new String[] {"    hedge: { maxShare: 150% }"}, "models.a.hedge.maxShare", 5,
                        "must be more than 0% and at most 100%"),
                new Case("a misspelt hedge key", new String[] {"    hedge: { afer: 2s }"}, "models.a.hedge.afer", 5,
                        "did you mean \"after\"?"),
                new Case("a hedge that is no map", new String[] {"    hedge: 2s"}, "models.a.hedge", 5, "must be a map"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void anImpossibleValueIsOneErrorWithKeyPathAndLine(Case mistake) {
        String[] lines = new String[mistake.lines().length + 4];
        lines[0] = PROVIDER;
        lines[1] = "models:";
        lines[2] = "  a:";
        lines[3] = "    provider: anthropic";
        System.arraycopy(mistake.lines(), 0, lines, 4, mistake.lines().length);

        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(String.join("\n", lines) + "\n", "agentfuse.yaml", Map.of()));

        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo(mistake.path());
            assertThat(error.line()).isEqualTo(mistake.line());
            assertThat(error.message()).contains(mistake.message());
        });
    }

    // ---------------------------------------------------------------- the runtime

    private static final String RUNTIME = """
            providers: { anthropic: {} }
            models:
              sonnet: { provider: anthropic, deadline: 30s, hedge: { after: 2s, maxShare: 50% } }
              haiku: { provider: anthropic }
            """;

    @Test
    void theRuntimeGivesEachRequestTheModelsDeadlineWhichTheCallerMayOnlyShorten() {
        AgentfuseRuntime runtime = runtime(RUNTIME);

        assertThat(runtime.deadline("sonnet", null).remaining()).isEqualTo(Duration.ofSeconds(30));
        assertThat(runtime.deadline("sonnet", Duration.ofSeconds(10)).remaining()).isEqualTo(Duration.ofSeconds(10));
        assertThat(runtime.deadline("sonnet", Duration.ofSeconds(60)).remaining()).isEqualTo(Duration.ofSeconds(30));
        assertThat(runtime.deadline("haiku", null)).isSameAs(Deadline.none());
        assertThat(runtime.deadline("haiku", Duration.ofSeconds(10)).remaining()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void theRuntimeGivesAModelsHedgePolicyWithOneBudgetThatAReloadKeeps() {
        AgentfuseRuntime runtime = runtime(RUNTIME);
        HedgePolicy hedge = runtime.hedgePolicy("sonnet").orElseThrow();
        hedge.budget().countRequest();
        hedge.budget().countRequest();
        assertThat(hedge.budget().tryHedge()).as("half of two requests").isTrue();

        runtime.reload(ConfigLoader.parse(RUNTIME, "agentfuse.yaml", Map.of()));

        HedgePolicy reloaded = runtime.hedgePolicy("sonnet").orElseThrow();
        assertThat(reloaded).isSameAs(hedge);
        assertThat(reloaded.budget().tryHedge()).as("the hedge taken before the reload still counts").isFalse();
        assertThat(hedge.delayNanos(null)).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(runtime.hedgePolicy("haiku")).isEmpty();
    }

    @Test
    void everyModelGuardKeepsItsRecentLatencyAcrossReloads() {
        AgentfuseRuntime runtime = runtime(RUNTIME);
        LatencyEstimate latency = runtime.modelGuard("haiku").latencyEstimate();
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            runtime.modelGuard("haiku").execute(() -> {
                clock.advance(Duration.ofMillis(700));
                return "answer";
            });
        }
        assertThat(latency.medianNanos()).isEqualTo(Duration.ofMillis(700).toNanos());

        runtime.reload(ConfigLoader.parse(RUNTIME.replace("haiku: { provider: anthropic }",
                "haiku: { provider: anthropic, timeout: 30s }"), "agentfuse.yaml", Map.of()));

        assertThat(runtime.modelGuard("haiku").latencyEstimate()).isSameAs(latency);
    }

    private ModelConfig model(String... lines) {
        String yaml = PROVIDER + "\nmodels:\n  a:\n" + String.join("\n", lines) + "\n";
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of()).model("a").orElseThrow();
    }

    private AgentfuseRuntime runtime(String yaml) {
        return AgentfuseRuntime.builder(ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of())).manualClock(clock).build();
    }
}
