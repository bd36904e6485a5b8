package io.agentfuse.cli.demo;

import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.List;

/**
 * The seeds' API story: a 5xx storm, retries after 2 s, 4 s and 8 s, the breaker trips, the
 * chain falls back to the next model, later calls skip the open model without calling it, and
 * five minutes later one probe closes the breaker again.
 */
final class StormScenario implements Scenario {

    private static final String MODEL = "claude-sonnet-4";
    private static final String UPSTREAM = "claude-sonnet-4-5";
    private static final String BREAKER = "model:" + MODEL;

    @Override
    public String name() {
        return "storm";
    }

    @Override
    public String title() {
        return "5xx storm → retries 2 s/4 s/8 s → breaker trips → fallback → half-open probe → recovery";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        stage.mock().reset();
        stage.mock().scriptForModel(UPSTREAM, MockStep.builder().status(500)
                .body(new JsonObject().put("type", "error").put("error",
                        new JsonObject().put("type", "api_error").put("message", "Internal server error")))
                .times(1_000).build());

        timeline.agent("asks " + MODEL + " (the provider is answering HTTP 500 to everything)");
        Reply first = stage.ask(MODEL, "Summarise today's incident reports.");
        narrateAttempts(stage, timeline);
        JsonObject breaker = stage.breaker(BREAKER);
        timeline.guard("breaker " + BREAKER, breaker.getString("state") + ": " + breaker.getString("reason"));
        timeline.good("fallback chain", "answered by " + first.header("x-agentfuse-model") + " after "
                + first.header("x-agentfuse-attempts") + " attempts; passed over: " + first.header("x-agentfuse-fallbacks"));
        expect.expect(first.status() == 200, "the fallback answers with 200, got " + first.status());
        expect.expect("claude-haiku-4".equals(first.header("x-agentfuse-model")), "claude-haiku-4 answers");
        expect.expect("OPEN".equals(breaker.getString("state")), "the breaker is OPEN");

        int callsBefore = upstreamCalls(stage);
        timeline.agent("asks " + MODEL + " again");
        Reply second = stage.ask(MODEL, "And yesterday's?");
        boolean skipped = upstreamCalls(stage) == callsBefore;
        timeline.good("breaker " + BREAKER, skipped ? "rejected at once: " + MODEL + " was not called (fast fail)"
                : "was called although open");
        timeline.good("fallback chain", "answered by " + second.header("x-agentfuse-model"));
        expect.expect(skipped, "an open breaker makes no upstream call");

        stage.mock().reset();
        long waitMillis = Math.round(300_000 / speed) + 50;
        timeline.agent("the provider recovers; the agent keeps working for " + timeline.seed(waitMillis));
        Thread.sleep(waitMillis);
        Reply probe = stage.ask(MODEL, "Summarise today's incident reports.");
        JsonObject healed = stage.breaker(BREAKER);
        timeline.good("breaker " + BREAKER, "half-open probe answered " + probe.status() + " by "
                + probe.header("x-agentfuse-model") + " → " + healed.getString("state"));
        expect.expect(MODEL.equals(probe.header("x-agentfuse-model")), "the probe goes to " + MODEL);
        expect.expect("CLOSED".equals(healed.getString("state")), "the breaker closes after the probe");
        return expect.result(name(), "4 attempts, tripped, fell back to claude-haiku-4, probe closed it");
    }

    private static void narrateAttempts(DemoStage stage, Timeline timeline) {
        List<RecordedRequest> attempts = stage.requestsFor(UPSTREAM);
        String[] backoffs = {"", " (backoff 2 s)", " (backoff 4 s)", " (backoff 8 s)"};
        for (int i = 0; i < attempts.size(); i++) {
            String gap = i == 0 ? "" : ", " + timeline.seed(Duration.between(attempts.get(i - 1).receivedAt(),
                    attempts.get(i).receivedAt()).toNanos() / 1e6) + " after the previous one" + backoffs[Math.min(i, 3)];
            timeline.guardAt(attempts.get(i).receivedAt(), "retry " + MODEL, "attempt " + (i + 1) + gap + " → HTTP 500");
        }
    }

    private static int upstreamCalls(DemoStage stage) {
        return stage.requestsFor(UPSTREAM).size();
    }
}
