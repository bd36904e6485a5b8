package io.agentfuse.gateway.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.StreamOpening.Stage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Where a stream's answer begins: at its first content, and reasoning the caller is shown is content —
 * a model that thinks aloud is producing, so the first-token limit is met (docs/design.md §13) —
 * while the events that only open a stream are a preamble. A caller of another dialect gets the
 * answer without the reasoning, which its dialect cannot carry: to it the reasoning is the model at
 * work, which meets the first-token limit but does not yet begin the answer.
 */
class AnswerOpeningTest {

    private static final SseEvent MESSAGE_START = anthropic("message_start", new JsonObject().put("message",
            new JsonObject().put("id", "msg_1").put("model", "claude-sonnet-4-5")
                    .put("usage", new JsonObject().put("input_tokens", 9).put("output_tokens", 1))));
    private static final SseEvent THINKING_START = anthropic("content_block_start", new JsonObject().put("index", 0)
            .put("content_block", new JsonObject().put("type", "thinking").put("thinking", "").put("signature", "")));
    private static final SseEvent THINKING_DELTA = anthropic("content_block_delta", new JsonObject().put("index", 0)
            .put("delta", new JsonObject().put("type", "thinking_delta").put("thinking", "Let me see.")));

    @Test
    void anAnthropicThinkingBlockBeginsTheAnswer() {
        AnswerOpening opening = shown(Dialects.ANTHROPIC);

        assertThat(opening.after(MESSAGE_START)).as("message_start").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(anthropic("ping", new JsonObject()))).as("ping").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(THINKING_START)).as("a thinking block").isEqualTo(Stage.BEGUN);
        assertThat(shown(Dialects.ANTHROPIC).after(THINKING_DELTA)).as("a thinking delta").isEqualTo(Stage.BEGUN);
        assertThat(shown(Dialects.ANTHROPIC).after(anthropic("content_block_start", new JsonObject()
                .put("index", 0).put("content_block", new JsonObject().put("type", "redacted_thinking").put("data", "x")))))
                .as("a redacted thinking block").isEqualTo(Stage.BEGUN);
        assertThat(opening.error()).isNull();
    }

    @Test
    void aResponsesReasoningItemOrSummaryBeginsTheAnswer() {
        AnswerOpening opening = shown(Dialects.RESPONSES);

        assertThat(opening.after(responses("response.created", new JsonObject().put("response", new JsonObject()
                .put("id", "resp_1").put("object", "response").put("status", "in_progress").put("model", "o4-mini")
                .put("output", new JsonArray()))))).as("response.created").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(responses("response.output_item.added", new JsonObject().put("output_index", 0)
                .put("item", new JsonObject().put("id", "msg_1").put("type", "message").put("role", "assistant")
                        .put("content", new JsonArray()))))).as("a message item, before its text").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(responses("response.output_item.added", new JsonObject().put("output_index", 0)
                .put("item", new JsonObject().put("id", "rs_1").put("type", "reasoning").put("summary", new JsonArray())))))
                .as("a reasoning item, before any summary").isEqualTo(Stage.BEGUN);
        assertThat(shown(Dialects.RESPONSES).after(responses("response.reasoning_summary_text.delta", new JsonObject()
                .put("item_id", "rs_1").put("output_index", 0).put("summary_index", 0).put("delta", "Weighing it."))))
                .as("a reasoning summary's delta").isEqualTo(Stage.BEGUN);
    }

    @Test
    void geminiThoughtsBeginTheAnswer() {
        AnswerOpening opening = shown(Dialects.GEMINI);

        assertThat(opening.after(SseEvent.data(gemini(new JsonObject().put("text", "Considering the question.")
                .put("thought", true)).encode()))).isEqualTo(Stage.BEGUN);
    }

    @Test
    void theReasoningContentOfAnOpenAiCompatibleServerBeginsTheAnswer() {
        AnswerOpening opening = shown(Dialects.OPENAI);

        assertThat(opening.after(openAi(new JsonObject().put("role", "assistant").put("content", ""))))
                .as("the role").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(openAi(new JsonObject().putNull("content").put("reasoning_content", "First, ..."))))
                .as("reasoning_content (DeepSeek, vLLM)").isEqualTo(Stage.BEGUN);
        assertThat(shown(Dialects.OPENAI).after(openAi(new JsonObject().put("reasoning", "Hmm."))))
                .as("reasoning (OpenRouter)").isEqualTo(Stage.BEGUN);
        assertThat(shown(Dialects.OPENAI).after(openAi(new JsonObject().put("content", "").putNull("reasoning_content"))))
                .as("no reasoning").isEqualTo(Stage.PREAMBLE);
    }

    @Test
    void bedrockReasoningBeginsTheAnswer() {
        AnswerOpening opening = shown(Dialects.BEDROCK);

        assertThat(opening.after(SseEvent.named("messageStart", new JsonObject().put("role", "assistant").encode())))
                .as("messageStart").isEqualTo(Stage.PREAMBLE);
        assertThat(opening.after(SseEvent.named("contentBlockDelta", new JsonObject().put("contentBlockIndex", 0)
                .put("delta", new JsonObject().put("reasoningContent", new JsonObject().put("text", "Hmm."))).encode())))
                .as("a reasoning delta").isEqualTo(Stage.BEGUN);
    }

    @Test
    void reasoningTheCallerIsNotShownIsWorkNotTheAnswer() {
        AtomicInteger work = new AtomicInteger();
        AnswerOpening opening = new AnswerOpening(Dialects.OPENAI, false, work::incrementAndGet);

        assertThat(opening.after(openAi(new JsonObject().put("role", "assistant").put("content", ""))))
                .as("the role").isEqualTo(Stage.PREAMBLE);
        assertThat(work).hasValue(0);
        assertThat(opening.after(openAi(new JsonObject().putNull("content").put("reasoning_content", "First, ..."))))
                .as("reasoning a Messages caller cannot be shown").isEqualTo(Stage.WORKING);
        assertThat(work).as("the first-token race is won").hasValue(1);
        assertThat(opening.after(openAi(new JsonObject().putNull("content").put("reasoning_content", "Then, ..."))))
                .isEqualTo(Stage.WORKING);
        assertThat(work).as("told once").hasValue(1);
        assertThat(opening.after(openAi(new JsonObject().put("content", "Forty-two.")))).isEqualTo(Stage.BEGUN);

        AnswerOpening responses = new AnswerOpening(Dialects.RESPONSES, false, work::incrementAndGet);
        assertThat(responses.after(responses("response.output_item.added", new JsonObject().put("output_index", 0)
                .put("item", new JsonObject().put("id", "rs_1").put("type", "reasoning").put("summary", new JsonArray())))))
                .as("a reasoning item to a Chat caller").isEqualTo(Stage.WORKING);
        assertThat(new AnswerOpening(Dialects.ANTHROPIC, false, work::incrementAndGet).after(THINKING_DELTA))
                .isEqualTo(Stage.WORKING);
    }

    @Test
    void aCallerOfAnotherDialectGetsTheAnswerWithoutTheReasoning() {
        List<SseEvent> stream = List.of(MESSAGE_START, THINKING_START, THINKING_DELTA,
                anthropic("content_block_stop", new JsonObject().put("index", 0)),
                anthropic("content_block_start", new JsonObject().put("index", 1)
                        .put("content_block", new JsonObject().put("type", "text").put("text", ""))),
                anthropic("content_block_delta", new JsonObject().put("index", 1)
                        .put("delta", new JsonObject().put("type", "text_delta").put("text", "Forty-two."))),
                anthropic("content_block_stop", new JsonObject().put("index", 1)),
                anthropic("message_delta", new JsonObject().put("delta", new JsonObject().put("stop_reason", "end_turn"))
                        .put("usage", new JsonObject().put("output_tokens", 12))),
                anthropic("message_stop", new JsonObject()));

        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, false, new ManualClock());
        List<SseEvent> out = new ArrayList<>();
        stream.forEach(event -> out.addAll(translator.translate(event)));
        out.addAll(translator.end());

        assertThat(out.get(out.size() - 1)).isEqualTo(SseEvent.DONE);
        List<JsonObject> chunks = out.stream().filter(event -> !event.isDone()).map(event -> new JsonObject(event.data())).toList();
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.containsKey("error")).as(chunk.encode()).isFalse());
        assertThat(chunks).extracting(chunk -> chunk.getJsonArray("choices").getJsonObject(0).getJsonObject("delta")
                .getString("content")).contains("Forty-two.").doesNotContain("Let me see.");
    }

    /** The opening of a stream whose caller is shown the reasoning (its own dialect, passed through). */
    private static AnswerOpening shown(Dialect dialect) {
        return new AnswerOpening(dialect, true, () -> { });
    }

    private static SseEvent anthropic(String type, JsonObject data) {
        return SseEvent.named(type, data.copy().put("type", type).encode());
    }

    private static SseEvent responses(String type, JsonObject data) {
        return SseEvent.named(type, data.copy().put("type", type).put("sequence_number", 1).encode());
    }

    private static SseEvent openAi(JsonObject delta) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", "deepseek-reasoner").put("choices", new JsonArray()
                        .add(new JsonObject().put("index", 0).put("delta", delta).putNull("finish_reason"))).encode());
    }

    private static JsonObject gemini(JsonObject part) {
        return new JsonObject().put("candidates", new JsonArray().add(new JsonObject().put("index", 0)
                .put("content", new JsonObject().put("role", "model").put("parts", new JsonArray().add(part)))))
                .put("modelVersion", "gemini-2.5-pro").put("responseId", "r1");
    }
}
