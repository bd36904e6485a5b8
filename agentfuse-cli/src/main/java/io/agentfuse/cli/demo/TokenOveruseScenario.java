package io.agentfuse.cli.demo;

import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;

/**
 * Token overuse: one answer that used 80 000 tokens (over the 50 000 per call allowed) opens the
 * model's breaker, so the next request goes to the fallback instead.
 */
final class TokenOveruseScenario implements Scenario {

    private static final String MODEL = "gpt-4.1";

    @Override
    public String name() {
        return "token-overuse";
    }

    @Override
    public String title() {
        return "one call burns 80 000 tokens → tokenOveruse opens the breaker → the next call falls back";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        stage.mock().reset();
        stage.mock().scriptForModel(MODEL, MockStep.builder().inputTokens(62_000).outputTokens(18_000).build());

        timeline.agent("asks " + MODEL + " to read a whole repository");
        Reply greedy = stage.ask(MODEL, "Read every file and explain the architecture.");
        JsonObject usage = greedy.body().getJsonObject("usage", new JsonObject());
        timeline.guard("usage", "the answer used " + usage.getInteger("total_tokens", 0) + " tokens (limit 50000 per call)");
        JsonObject breaker = stage.breaker("model:" + MODEL);
        timeline.guard("breaker model:" + MODEL, breaker.getString("state") + ": " + breaker.getString("reason"));
        expect.expect(greedy.status() == 200, "the greedy answer is still delivered");
        expect.expect("OPEN".equals(breaker.getString("state")), "token overuse opens the breaker");

        timeline.agent("asks " + MODEL + " again");
        Reply next = stage.ask(MODEL, "Now summarise it.");
        timeline.good("fallback chain", "answered by " + next.header("x-agentfuse-model") + "; passed over: "
                + next.header("x-agentfuse-fallbacks"));
        expect.expect("gpt-4o-mini".equals(next.header("x-agentfuse-model")), "gpt-4o-mini answers while " + MODEL + " is open");
        return expect.result(name(), "80 000 tokens opened the breaker; gpt-4o-mini took over");
    }
}
