package io.agentfuse.cli.demo;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The first seed's context ladder on a growing conversation: WARNING, then compaction by the
 * compact model, then a compaction that fails and is rolled back into snipping, then a request
 * that cannot fit at all: 413 {@code context_window_full}.
 */
final class ContextScenario implements Scenario {

    private static final String MODEL = "notes-model";
    private static final String COMPACT_UPSTREAM = "gpt-4o-mini";
    private static final TokenCounter COUNTER = TokenCounter.forModel("gpt-4o");

    @Override
    public String name() {
        return "context";
    }

    @Override
    public String title() {
        return "a growing conversation: WARNING → compaction → failed compaction rolled back → snip → 413";
    }

    @Override
    public ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception {
        var expect = new ScenarioResult.Expectations(timeline);
        stage.mock().reset();

        Reply warning = send(stage, timeline, 0.74);
        timeline.guard("context ladder", contextHeaders(warning));
        expect.expect(warning.header("x-agentfuse-context").startsWith("WARNING"), "74 % of the window is WARNING");

        stage.mock().scriptForModel(COMPACT_UPSTREAM, MockStep.builder().text("Summary: the user and the assistant "
                + "planned the migration; tasks 1-9 are done, task 10 is open.").build());
        Reply compacted = send(stage, timeline, 0.86);
        timeline.good("context ladder", contextHeaders(compacted));
        expect.expect(compacted.status() == 200 && compaction(compacted).contains("action=SUMMARY"),
                "86 % is compacted with a summary (HTTP " + compacted.status() + " " + compacted.errorType() + "; "
                        + compacted.header("x-agentfuse-fallbacks") + "; " + compacted.text() + ")");

        stage.mock().scriptForModel(COMPACT_UPSTREAM, MockStep.builder().status(500).times(10).build());
        timeline.note("the compact model now fails with HTTP 500");
        Reply snipped = send(stage, timeline, 0.86);
        timeline.good("context ladder", contextHeaders(snipped));
        expect.expect(snipped.status() == 200 && compaction(snipped).contains("action=SNIP")
                && compaction(snipped).contains("summary=FAILED"),
                "a failed summary is rolled back and the request snipped (HTTP " + snipped.status() + "; "
                        + contextHeaders(snipped) + "; " + snipped.text() + ")");

        JsonArray huge = new JsonArray().add(message("user", words(DemoConfig.NOTES_WINDOW + 500)));
        timeline.agent("pastes one message larger than the whole window");
        Reply full = stage.chat(MODEL, huge);
        timeline.bad("context ladder", full.status() + " " + full.errorType() + ": " + full.text());
        expect.expect(full.status() == 413 && "context_window_full".equals(full.errorType()),
                "a request that cannot fit gets 413 context_window_full, got " + full.status() + " " + full.errorType());
        return expect.result(name(), "WARNING → summary → rolled back to snip → 413 context_window_full");
    }

    private static Reply send(DemoStage stage, Timeline timeline, double share) throws Exception {
        JsonArray messages = conversationAt(share);
        timeline.agent(String.format(Locale.ROOT, "sends %d messages, about %.0f %% of the %d-token window",
                messages.size(), share * 100, DemoConfig.NOTES_WINDOW));
        return stage.chat(MODEL, messages);
    }

    /** A conversation of growing turns that fills at least {@code share} of the window. */
    private static JsonArray conversationAt(double share) {
        List<Message> agentView = new ArrayList<>();
        JsonArray messages = new JsonArray();
        String system = "You are the project's planning assistant.";
        agentView.add(Message.system(system));
        messages.add(message("system", system));
        for (int turn = 1; ; turn++) {
            String role = turn % 2 == 1 ? "user" : "assistant";
            String text = "Step " + turn + " of the migration plan: " + words(30);
            agentView.add(role.equals("user") ? Message.user(text) : Message.assistant(text));
            messages.add(message(role, text));
            boolean full = COUNTER.countConversation(new Conversation(agentView)) >= share * DemoConfig.NOTES_WINDOW;
            if (full && role.equals("user")) {
                return messages;
            }
        }
    }

    private static JsonObject message(String role, String content) {
        return new JsonObject().put("role", role).put("content", content);
    }

    private static String words(int count) {
        String[] pool = {"schema", "index", "rollback", "replica", "cutover", "backfill", "queue", "shard"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(pool[i % pool.length]);
        }
        return text.toString();
    }

    /** The context headers of {@code reply}, as the timeline shows them. */
    private static String contextHeaders(Reply reply) {
        return "x-agentfuse-context: " + reply.header("x-agentfuse-context")
                + reply.optionalHeader("x-agentfuse-compaction").map(done -> ", x-agentfuse-compaction: " + done).orElse("");
    }

    /** What compaction did to the request of {@code reply}; empty when it was not compacted. */
    private static String compaction(Reply reply) {
        return reply.optionalHeader("x-agentfuse-compaction").orElse("");
    }
}
