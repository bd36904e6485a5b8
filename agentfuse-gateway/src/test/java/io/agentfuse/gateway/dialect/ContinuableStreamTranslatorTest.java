package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A continuable translator on its own: within one dialect it re-encodes, holds the error of a
 * broken stream back, and goes on with another provider's stream without its start event, the
 * usage of both added at the finish.
 */
class ContinuableStreamTranslatorTest {

    private final ManualClock clock = new ManualClock();

    private static SseEvent anthropic(String type, JsonObject data) {
        return SseEvent.named(type, new JsonObject().put("type", type).mergeIn(data).encode());
    }

    private static final SseEvent MESSAGE_START = anthropic("message_start", new JsonObject().put("message",
            new JsonObject().put("id", "msg_1").put("model", "claude").put("usage",
                    new JsonObject().put("input_tokens", 25).put("output_tokens", 1))));
    private static final SseEvent TEXT_BLOCK = anthropic("content_block_start", new JsonObject().put("index", 0)
            .put("content_block", new JsonObject().put("type", "text").put("text", "")));

    private static SseEvent anthropicText(String text) {
        return anthropic("content_block_delta", new JsonObject().put("index", 0)
                .put("delta", new JsonObject().put("type", "text_delta").put("text", text)));
    }

    private static SseEvent openAiChunk(JsonObject delta, String finishReason) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", "gpt")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
                        .put("finish_reason", finishReason))).encode());
    }

    private StreamTranslator messagesCallersTranslator() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude").put("max_tokens", 100)
                .put("stream", true).put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))));
        return StreamTranslator.continuable(Dialects.ANTHROPIC, request, false, clock);
    }

    @Test
    void givenAStreamCutAfterItsTextWhenAnOpenAiStreamGoesOnThenTheCallerGetsOneAnthropicAnswerWithTheUsageOfBoth() {
        StreamTranslator translator = messagesCallersTranslator();
        List<SseEvent> out = new ArrayList<>();
        for (SseEvent event : List.of(MESSAGE_START, TEXT_BLOCK, anthropicText("one "))) {
            out.addAll(translator.translate(event));
        }
        List<SseEvent> closing = translator.end();

        assertThat(translator.failure()).hasValueSatisfying(error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.CUT));
        assertThat(closing).as("the error is held back for the relay").noneMatch(event -> "error".equals(event.event()));
        assertThat(translator.continuable()).isTrue();
        assertThat(translator.sentText()).isEqualTo("one ");

        translator.continueWith(Dialects.OPENAI);
        for (SseEvent event : List.of(openAiChunk(new JsonObject().put("role", "assistant").put("content", ""), null),
                openAiChunk(new JsonObject().put("content", "two"), null), openAiChunk(new JsonObject(), "stop"),
                SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("choices", new JsonArray()).put("usage",
                        new JsonObject().put("prompt_tokens", 9).put("completion_tokens", 2).put("total_tokens", 11)).encode()),
                SseEvent.DONE)) {
            out.addAll(translator.translate(event));
        }
        out.addAll(translator.end());

        assertThat(translator.failure()).isEmpty();
        assertThat(out.stream().filter(event -> "message_start".equals(event.event()))).hasSize(1);
        assertThat(out.stream().filter(event -> "content_block_delta".equals(event.event()))
                .map(event -> new JsonObject(event.data()).getJsonObject("delta").getString("text")))
                .containsExactly("one ", "two");
        JsonObject usage = out.stream().filter(event -> "message_delta".equals(event.event())).findFirst()
                .map(event -> new JsonObject(event.data()).getJsonObject("usage")).orElseThrow();
        assertThat(usage.getLong("input_tokens")).isEqualTo(25 + 9);
        assertThat(usage.getLong("output_tokens")).isEqualTo(1 + 2);
        assertThat(translator.usage()).isEqualTo(Usage.of(34, 3));
        assertThat(translator.streamUsage()).as("the continuation's own call").isEqualTo(Usage.of(9, 2));
        assertThat(out.get(out.size() - 1).event()).isEqualTo("message_stop");
    }

    @Test
    void givenATextAnswerWithinOneDialectThenItIsReEncodedNotPassedThrough() {
        StreamTranslator translator = messagesCallersTranslator();
        SseEvent start = MESSAGE_START;

        List<SseEvent> out = translator.translate(start);

        assertThat(out).singleElement().satisfies(event -> {
            assertThat(event).isNotSameAs(start);
            assertThat(event.event()).isEqualTo("message_start");
        });
    }

    @Test
    void givenAToolCallBegunThenTheAnswerCannotBeContinued() {
        StreamTranslator translator = messagesCallersTranslator();
        for (SseEvent event : List.of(MESSAGE_START, TEXT_BLOCK, anthropicText("Checking."),
                anthropic("content_block_start", new JsonObject().put("index", 1).put("content_block", new JsonObject()
                        .put("type", "tool_use").put("id", "toolu_1").put("name", "get_weather").put("input", new JsonObject()))))) {
            translator.translate(event);
        }

        assertThat(translator.continuable()).isFalse();
        assertThatThrownBy(() -> translator.continueWith(Dialects.OPENAI)).isInstanceOf(IllegalStateException.class);
        assertThat(translator.error("upstream_error", "cut")).extracting(SseEvent::event).containsExactly("error");
    }

    @Test
    void givenAPassThroughTranslatorThenItIsNotContinuable() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.ANTHROPIC, false, clock);

        assertThat(translator.continuable()).isFalse();
        assertThat(translator.sentText()).isEmpty();
    }
}
