package io.agentfuse.cli.demo;

import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;

/**
 * 429 with {@code Retry-After}: the retry waits as long as the provider asked, not its own
 * backoff; two 429s in a row ("model overload") open the breaker, and a model without fallbacks
 * then answers 503 {@code circuit_open} with a {@code Retry-After} of its own, without a call.
 */
final class RateLimitScenario implements Scenario {

    private static final String MODEL = "gpt-4o";
    private static final long RETRY_AFTER_SEED_MILLIS = 30_000;

    @Override
    public String name() {
        return "rate-limit";
    }

    @Override
    public String title() {
        return "429 with Retry-After → the retry waits what the provider asked → two in a row open the breaker";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        stage.mock().reset();
        String hintMillis = Long.toString(Math.max(1, Math.round(RETRY_AFTER_SEED_MILLIS / speed)));
        MockStep rateLimited = MockStep.builder().status(429).retryAfterMs(hintMillis)
                .body(new JsonObject().put("error", new JsonObject().put("type", "rate_limit_exceeded")
                        .put("message", "Rate limit reached for requests"))).build();
        stage.mock().scriptForModel(MODEL, rateLimited);

        timeline.agent("asks " + MODEL + " (the provider answers 429 with retry-after-ms: "
                + timeline.seed(Double.parseDouble(hintMillis)) + ")");
        double start = timeline.elapsedMillis();
        Reply reply = stage.ask(MODEL, "Draft the release notes.");
        double waited = timeline.elapsedMillis() - start;
        timeline.good("retry " + MODEL, "waited " + timeline.seed(waited) + " as asked, not its own 2 s backoff; then "
                + reply.status() + " after " + reply.header("x-agentfuse-attempts") + " attempts");
        expect.expect(reply.status() == 200, "the retry after Retry-After succeeds, got " + reply.status());
        expect.expect(waited >= Double.parseDouble(hintMillis), "the retry waits at least the Retry-After");

        stage.mock().scriptForModel(MODEL, rateLimited, rateLimited);
        timeline.agent("asks again; the provider answers 429 twice in a row");
        Reply overloaded = stage.ask(MODEL, "Draft the release notes.");
        JsonObject breaker = stage.breaker("model:" + MODEL);
        timeline.guard("breaker model:" + MODEL, breaker.getString("state") + ": " + breaker.getString("reason"));
        timeline.bad("gateway", overloaded.status() + " " + overloaded.errorType() + " (no fallback configured for " + MODEL + ")");
        expect.expect("OPEN".equals(breaker.getString("state")), "two 429s in a row open the breaker");

        timeline.agent("asks once more");
        Reply rejected = stage.ask(MODEL, "Draft the release notes.");
        timeline.good("breaker model:" + MODEL, rejected.status() + " " + rejected.errorType()
                + " at once, no upstream call; Retry-After: " + rejected.header("retry-after") + " s (the open time, 5 min at real speed)");
        expect.expect(rejected.status() == 503 && "circuit_open".equals(rejected.errorType()),
                "an open breaker answers 503 circuit_open, got " + rejected.status() + " " + rejected.errorType());
        return expect.result(name(), "waited the Retry-After, then 2 × 429 opened the breaker: 503 circuit_open");
    }
}
