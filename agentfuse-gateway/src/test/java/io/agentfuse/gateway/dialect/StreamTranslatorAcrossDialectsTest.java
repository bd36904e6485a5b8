package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.agentfuse.gateway.dialect.UpstreamEvents.anthropicToolStream;
import static io.agentfuse.gateway.dialect.UpstreamEvents.data;
import static io.agentfuse.gateway.dialect.UpstreamEvents.feed;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiChunk;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiTextStream;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiToolDelta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A stream translated from one dialect to another: text, tool calls and usage arrive in the caller's
 * dialect, and a translator going on from an observed first event relays what an observing one relays.
 */
class StreamTranslatorAcrossDialectsTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void translatesOpenAiTextStreamToAnthropicEvents() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);

        List<SseEvent> out = feed(translator, openAiTextStream());

        assertThat(out).extracting(SseEvent::event).containsExactly("message_start", "content_block_start",
                "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
        JsonObject messageDelta = data(out).get(5);
        assertThat(messageDelta.getJsonObject("delta").getString("stop_reason")).isEqualTo("end_turn");
        assertThat(messageDelta.getJsonObject("usage")).isEqualTo(new JsonObject().put("input_tokens", 9).put("output_tokens", 2));
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
        assertThat(translator.finished()).isTrue();
    }

    @Test
    void translatesOpenAiToolCallDeltasToToolUseBlock() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);

        List<JsonObject> out = data(feed(translator, List.of(
                openAiChunk(new JsonObject().put("role", "assistant").put("content", null), null),
                openAiToolDelta(0, "call_1", "get_weather", ""),
                openAiToolDelta(0, null, null, "{\"city\":"),
                openAiToolDelta(0, null, null, "\"Oslo\"}"),
                openAiChunk(new JsonObject(), "tool_calls"),
                SseEvent.DONE)));

        assertThat(out.get(1).getJsonObject("content_block")).isEqualTo(new JsonObject().put("type", "tool_use")
                .put("id", "call_1").put("name", "get_weather").put("input", new JsonObject()));
        StringBuilder json = new StringBuilder();
        out.stream().filter(e -> "content_block_delta".equals(e.getString("type")))
                .forEach(e -> json.append(e.getJsonObject("delta").getString("partial_json")));
        assertThat(new JsonObject(json.toString())).isEqualTo(new JsonObject().put("city", "Oslo"));
        assertThat(out.get(out.size() - 2).getJsonObject("delta").getString("stop_reason")).isEqualTo("tool_use");
    }

    @Test
    void translatesAnthropicToolStreamToOpenAiChunksWithUsage() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, true, clock);

        List<SseEvent> out = feed(translator, anthropicToolStream());

        assertThat(out.get(out.size() - 1)).isEqualTo(SseEvent.DONE);
        List<JsonObject> chunks = data(out);
        assertThat(chunks).allSatisfy(c -> assertThat(c.getString("object")).isEqualTo("chat.completion.chunk"));
        JsonObject first = chunks.get(0).getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
        assertThat(first.getString("role")).isEqualTo("assistant");
        JsonObject toolStart = chunks.get(2).getJsonArray("choices").getJsonObject(0).getJsonObject("delta")
                .getJsonArray("tool_calls").getJsonObject(0);
        assertThat(toolStart.getInteger("index")).isZero();
        assertThat(toolStart.getString("id")).isEqualTo("toolu_1");
        JsonObject finish = chunks.get(chunks.size() - 2).getJsonArray("choices").getJsonObject(0);
        assertThat(finish.getString("finish_reason")).isEqualTo("tool_calls");
        JsonObject usage = chunks.get(chunks.size() - 1);
        assertThat(usage.getJsonArray("choices")).isEmpty();
        assertThat(usage.getJsonObject("usage")).isEqualTo(new JsonObject().put("prompt_tokens", 25)
                .put("completion_tokens", 17).put("total_tokens", 42));
    }

    @Test
    void leavesOutUsageChunkWhenOpenAiCallerDidNotAskForIt() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, false, clock);

        List<JsonObject> chunks = data(feed(translator, anthropicToolStream()));

        assertThat(chunks).allSatisfy(c -> assertThat(c.getJsonArray("choices")).isNotEmpty());
        assertThat(translator.usage()).isEqualTo(Usage.of(25, 17));
    }

    @Test
    void aTranslatorGoingOnFromTheObservedFirstEventRelaysWhatOneObservingItRelays() {
        List<List<SseEvent>> streams = List.of(openAiTextStream(), anthropicToolStream());
        List<Dialect> dialects = List.of(Dialects.OPENAI, Dialects.ANTHROPIC);
        for (int i = 0; i < streams.size(); i++) {
            List<SseEvent> stream = streams.get(i);
            Dialect upstream = dialects.get(i);
            for (Dialect client : dialects) {
                StreamTranslator observing = StreamTranslator.between(upstream, client, true, clock);
                ObservedEvent first = ObservedEvent.of(upstream, stream.get(0));
                StreamTranslator goingOn = StreamTranslator.between(upstream, client, true, clock, first);

                assertThat(feed(goingOn, stream)).as(upstream + " to " + client).isEqualTo(feed(observing, stream));
                assertThat(goingOn.usage()).isEqualTo(observing.usage());
                assertThat(goingOn.finished()).isTrue();
                assertThat(goingOn.failure()).isEmpty();
            }
        }
    }

    @Test
    void aFirstEventObservedAsBrokenIsReplacedByAnErrorEventAndTheObservationServesThatEventOnly() {
        SseEvent broken = SseEvent.data("{\"choices\":[");
        ObservedEvent first = ObservedEvent.of(Dialects.OPENAI, broken);
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock, first);

        assertThat(translator.translate(broken)).singleElement().satisfies(event -> assertThat(event.data()).contains("error"));
        assertThat(translator.failure()).isPresent();

        // An observation of another event (never the case in the gateway) says nothing about this one: it is observed.
        StreamTranslator misled = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock,
                ObservedEvent.of(Dialects.OPENAI, SseEvent.data("{\"id\":\"c\",\"choices\":[]}")));
        assertThat(misled.translate(broken)).singleElement().satisfies(event -> assertThat(event.data()).contains("error"));
        assertThat(misled.failure()).isPresent();
    }

    @Test
    void refusesInterleavedToolArgumentsForAnthropicCaller() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);
        translator.translate(openAiToolDelta(0, "call_1", "a", ""));
        translator.translate(openAiToolDelta(1, "call_2", "b", ""));

        assertThatThrownBy(() -> translator.translate(openAiToolDelta(0, null, null, "{}")))
                .isInstanceOf(UntranslatableException.class);
    }
}
