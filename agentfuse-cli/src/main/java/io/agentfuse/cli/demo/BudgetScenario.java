package io.agentfuse.cli.demo;

import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A budget: an agent session spends its 30 000 tokens on {@code planner}, is switched to the
 * cheaper {@code gpt-4o-mini} for the rest of the window ({@code onExhausted: {fallback}}), and once
 * the session's cap of 60 000 tokens on any model is spent, it is refused — 429
 * {@code budget_exceeded}, {@code insufficient_quota}, before any upstream call.
 */
final class BudgetScenario implements Scenario {

    private static final String MODEL = "planner";
    private static final String SESSION = "demo-session";
    /** What each answer uses: 10 000 tokens read, 2 000 written. */
    private static final int USED = 12_000;

    @Override
    public String name() {
        return "budget";
    }

    @Override
    public String title() {
        return "a session spends its tokens → switched to a cheaper model → refused once its cap is spent";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        stage.mock().reset();
        stage.mock().defaultStep(MockStep.builder().inputTokens(10_000).outputTokens(USED - 10_000).build());
        List<String> answeredBy = new ArrayList<>();
        Reply reply;
        int turn = 0;
        while (true) {
            turn++;
            timeline.agent("turn " + turn + ": asks " + MODEL + " (session " + SESSION + ", max_tokens 2000)");
            reply = stage.askInSession(MODEL, "Plan the next step of the migration.", 2_000, SESSION);
            if (reply.status() != 200 || turn > 10) {
                break;
            }
            answeredBy.add(reply.header("x-agentfuse-model"));
            String budget = String.join(" | ", reply.response().headers().allValues("x-agentfuse-budget"));
            if (reply.optionalHeader("x-agentfuse-fallbacks").isPresent()) {
                timeline.guard("budget", "answered by " + reply.header("x-agentfuse-model") + " (x-agentfuse-fallbacks: "
                        + reply.header("x-agentfuse-fallbacks") + "); " + budget);
            } else {
                timeline.good("budget", "answered by " + reply.header("x-agentfuse-model") + "; " + budget);
            }
        }
        timeline.guard("budget", reply.status() + " " + reply.errorType() + " (code "
                + reply.body().getJsonObject("error", new JsonObject()).getString("code", "-")
                + ", x-should-retry: " + reply.header("x-should-retry") + "): " + reply.text());
        timeline.note("x-agentfuse-budget: " + reply.header("x-agentfuse-budget"));
        expect.expect(answeredBy.equals(List.of(MODEL, MODEL, MODEL, "gpt-4o-mini", "gpt-4o-mini")),
                "three answers from " + MODEL + ", then two from gpt-4o-mini, but was " + answeredBy);
        expect.expect(reply.status() == 429 && "budget_exceeded".equals(reply.errorType()),
                "the spent session is refused with 429 budget_exceeded");
        expect.expect(reply.header("x-agentfuse-budget").startsWith("session-cap; scope=session; remaining=0; resets="),
                "the refusal names the spent budget");
        expect.expect(stage.requestsFor("gpt-4o").size() == 3 && stage.requestsFor("gpt-4o-mini").size() == 2,
                "the refused turn reached no provider");
        return expect.result(name(), "36 000 tokens on " + MODEL + " (budget 30 000: the last call may pass it), 24 000 on"
                + " gpt-4o-mini up to the 60 000 cap, then 429 budget_exceeded");
    }
}
