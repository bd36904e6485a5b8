package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamTranslatorTest {

    private final ManualClock clock = new ManualClock();

    // --- OpenAI upstream events -------------------------------------------------------------

    private static SseEvent openAiChunk(JsonObject delta, String finishReason) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", "gpt-4o-mini")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
                        .put("finish_reason", finishReason))).encode());
    }

    private static SseEvent openAiUsage(int prompt, int completion) {
        return SseEvent.data(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("choices", new JsonArray()).put("usage", new JsonObject().put("prompt_tokens", prompt)
                        .put("completion_tokens", completion).put("total_tokens", prompt + completion)).encode());
    }

    private static SseEvent openAiToolDelta(int index, String id, String name, String arguments) {
        JsonObject call = new JsonObject().put("index", index).put("function", new JsonObject().put("arguments", arguments));
        if (id != null) {
            call.put("id", id).put("type", "function").getJsonObject("function").put("name", name);
        }
        return openAiChunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
    }

    private static List<SseEvent> openAiTextStream() {
        return List.of(
                openAiChunk(new JsonObject().put("role", "assistant").put("content", ""), null),
                openAiChunk(new JsonObject().put("content", "Hel"), null),
                openAiChunk(new JsonObject().put("content", "lo"), null),
                openAiChunk(new JsonObject(), "stop"),
                openAiUsage(9, 2),
                SseEvent.DONE);
    }

    // --- Anthropic upstream events ----------------------------------------------------------

    private static SseEvent anthropicEvent(String type, JsonObject data) {
        return SseEvent.named(type, new JsonObject().put("type", type).mergeIn(data).encode());
    }

    private static List<SseEvent> anthropicToolStream() {
        return List.of(
                anthropicEvent("message_start", new JsonObject().put("message", new JsonObject().put("id", "msg_1")
                        .put("model", "claude-haiku-4-5").put("usage", new JsonObject().put("input_tokens", 25).put("output_tokens", 1)))),
                anthropicEvent("content_block_start", new JsonObject().put("index", 0)
                        .put("content_block", new JsonObject().put("type", "text").put("text", ""))),
                anthropicEvent("ping", new JsonObject()),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 0)
                        .put("delta", new JsonObject().put("type", "text_delta").put("text", "Checking."))),
                anthropicEvent("content_block_stop", new JsonObject().put("index", 0)),
                anthropicEvent("content_block_start", new JsonObject().put("index", 1).put("content_block", new JsonObject()
                        .put("type", "tool_use").put("id", "toolu_1").put("name", "get_weather").put("input", new JsonObject()))),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 1)
                        .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", "{\"city\":"))),
                anthropicEvent("content_block_delta", new JsonObject().put("index", 1)
                        .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", "\"Oslo\"}"))),
                anthropicEvent("content_block_stop", new JsonObject().put("index", 1)),
                anthropicEvent("message_delta", new JsonObject().put("delta", new JsonObject().put("stop_reason", "tool_use"))
                        .put("usage", new JsonObject().put("output_tokens", 17))),
                anthropicEvent("message_stop", new JsonObject()));
    }

    private static List<SseEvent> feed(StreamTranslator translator, List<SseEvent> events) {
        List<SseEvent> out = new ArrayList<>();
        events.forEach(event -> out.addAll(translator.translate(event)));
        out.addAll(translator.end());
        return out;
    }

    private static List<JsonObject> data(List<SseEvent> events) {
        return events.stream().filter(e -> !e.isDone()).map(e -> new JsonObject(e.data())).toList();
    }

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
    void passesSameDialectEventsThroughUnchanged() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.ANTHROPIC, false, clock);

        assertThat(feed(translator, anthropicToolStream())).isEqualTo(anthropicToolStream());
        assertThat(translator.usage()).isEqualTo(Usage.of(25, 17));
    }

    @Test
    void dropsUsageChunkTheOpenAiCallerDidNotAskFor() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);

        List<SseEvent> out = feed(translator, openAiTextStream());

        assertThat(out).doesNotContain(openAiUsage(9, 2)).hasSize(openAiTextStream().size() - 1);
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }

    @Test
    void dropsAUsageChunkWrittenWithSpacesAndRelaysChunksWithoutEmptyArraysAsTheyCame() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);
        SseEvent spaced = SseEvent.data("{\"id\":\"c\",\"choices\": [ \n],\"usage\":{\"prompt_tokens\":9,"
                + "\"completion_tokens\":2,\"total_tokens\":11}}");
        List<SseEvent> stream = new ArrayList<>(openAiTextStream());
        stream.set(stream.indexOf(openAiUsage(9, 2)), spaced);

        List<SseEvent> out = feed(translator, stream);

        assertThat(out).doesNotContain(spaced).hasSize(stream.size() - 1);
        assertThat(out.get(0)).isSameAs(stream.get(0));
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }

    @Test
    void readFromAProviderTheUsageChunkIsDroppedAndAnEmptyArrayInsideTextIsRelayed() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);
        String text = "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"an empty list: [ ]\"}}]}";
        String usage = "{\"id\":\"c\",\"choices\":[\t],\"usage\":{\"prompt_tokens\":9,"
                + "\"completion_tokens\":2,\"total_tokens\":11}}";
        List<SseEvent> read = new ArrayList<>(); // events read from bytes, as from a provider
        SseParser parser = new SseParser(read::add);
        parser.feed(Buffer.buffer("data: " + text + "\n\ndata: " + usage + "\n\ndata: [DONE]\n\n"));

        List<SseEvent> out = feed(translator, read);

        assertThat(out).containsExactly(read.get(0), read.get(2));
        assertThat(out.get(0).data()).isEqualTo(text);
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }

    @Test
    void endsStreamCutShortWithErrorEventInCallerDialect() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);

        List<SseEvent> out = feed(translator, openAiTextStream().subList(0, 2));

        SseEvent last = out.get(out.size() - 1);
        assertThat(last.event()).isEqualTo("error");
        assertThat(new JsonObject(last.data()).getJsonObject("error").getString("message")).contains("ended");
    }

    @Test
    void endsPassedThroughStreamCutShortWithErrorEvent() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.ANTHROPIC, false, clock);

        List<SseEvent> out = feed(translator, anthropicToolStream().subList(0, 4));

        assertThat(out.get(out.size() - 1).event()).isEqualTo("error");
        assertThat(translator.finished()).isTrue();
    }

    @Test
    void relaysUpstreamErrorEventAcrossDialectsTypedAsTheCallersDialectTypesItsOutcome() {
        StreamTranslator toOpenAi = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, false, clock);
        StreamTranslator toGoogle = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.GEMINI, false, clock);
        List<SseEvent> overloaded = List.of(anthropicToolStream().get(0), anthropicEvent("error",
                new JsonObject().put("error", new JsonObject().put("type", "overloaded_error").put("message", "Overloaded"))));

        JsonObject forOpenAi = new JsonObject(last(feed(toOpenAi, overloaded)).data()).getJsonObject("error");
        JsonObject forGoogle = new JsonObject(last(feed(toGoogle, overloaded)).data()).getJsonObject("error");

        assertThat(forOpenAi.getString("type")).isEqualTo("server_error");
        assertThat(forOpenAi.getString("message")).isEqualTo("Overloaded");
        assertThat(forGoogle.getString("status")).isEqualTo("UNAVAILABLE");
        assertThat(forGoogle.getInteger("code")).isEqualTo(503);
    }

    @Test
    void aGoogleErrorInAStreamReachesAnAnthropicCallerAsItsOverloadAndRateLimit() {
        for (String[] google : new String[][] {{"UNAVAILABLE", "overloaded_error"}, {"RESOURCE_EXHAUSTED", "rate_limit_error"}}) {
            StreamTranslator translator = StreamTranslator.between(Dialects.GEMINI, Dialects.ANTHROPIC, false, clock);

            List<SseEvent> out = feed(translator, List.of(SseEvent.data(new JsonObject().put("error", new JsonObject()
                    .put("code", 503).put("message", "The model is overloaded.").put("status", google[0])).encode())));

            JsonObject error = new JsonObject(last(out).data()).getJsonObject("error");
            assertThat(error.getString("type")).as(google[0]).isEqualTo(google[1]);
            assertThat(error.getString("message")).isEqualTo("The model is overloaded.");
        }
    }

    @Test
    void anErrorWithinOneFamilyOfErrorsKeepsItsType() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.RESPONSES, false, clock);

        List<SseEvent> out = feed(translator, List.of(SseEvent.data(new JsonObject().put("error", new JsonObject()
                .put("type", "tokens").put("message", "Rate limit reached for tokens")).encode())));

        assertThat(out.stream().map(SseEvent::data).toList()).anyMatch(data -> data.contains("\"tokens\""));
    }

    private static SseEvent last(List<SseEvent> events) {
        return events.get(events.size() - 1);
    }

    @Test
    void refusesInterleavedToolArgumentsForAnthropicCaller() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.ANTHROPIC, false, clock);
        translator.translate(openAiToolDelta(0, "call_1", "a", ""));
        translator.translate(openAiToolDelta(1, "call_2", "b", ""));

        assertThatThrownBy(() -> translator.translate(openAiToolDelta(0, null, null, "{}")))
                .isInstanceOf(UntranslatableException.class);
    }

    @Test
    void writesGatewayErrorEventInCallerDialect() {
        StreamTranslator toOpenAi = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, false, clock);

        List<SseEvent> errors = toOpenAi.error("timeout", "no chunk for 30 s");

        assertThat(errors).hasSize(1);
        SseEvent error = errors.get(0);
        assertThat(error.event()).isNull();
        assertThat(new JsonObject(error.data())).isEqualTo(new JsonObject().put("error", new JsonObject()
                .put("message", "no chunk for 30 s").put("type", "timeout").put("param", null).put("code", "timeout")));
    }

    // --- broken upstream streams --------------------------------------------------------------

    @Test
    void aMalformedEventIsNeverPassedThroughWithinOneDialect() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);
        translator.translate(openAiChunk(new JsonObject().put("content", "Hel"), null));

        List<SseEvent> out = translator.translate(SseEvent.data("{\"choices\": [tru"));

        assertThat(out).hasSize(1);
        assertThat(new JsonObject(out.get(0).data()).getJsonObject("error").getString("type")).isEqualTo("upstream_error");
        assertThat(translator.failure()).hasValueSatisfying(
                error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED));
    }

    @Test
    void anEventOfTheWrongShapeIsMalformedNotAGatewayBug() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.OPENAI, false, clock);

        List<SseEvent> out = translator.translate(anthropicEvent("message_start", new JsonObject().put("message", 42)));

        assertThat(out).hasSize(1);
        assertThat(out.get(0).data()).contains("wrong shape").doesNotContain("ClassCast", "java.");
        assertThat(translator.failure().orElseThrow().cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED);
    }

    @Test
    void aSameDialectStreamCutAfterItsFinishReasonGetsItsTerminator() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, true, clock);
        translator.translate(openAiChunk(new JsonObject().put("content", "Hi"), null));
        translator.translate(openAiChunk(new JsonObject(), "stop"));

        assertThat(translator.end()).containsExactly(SseEvent.DONE);
        assertThat(translator.failure()).isEmpty();
    }

    @Test
    void aSameDialectStreamCutBeforeItsEndFailsWithAnErrorEvent() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.ANTHROPIC, false, clock);
        translator.translate(anthropicEvent("message_start", new JsonObject().put("message", new JsonObject())));

        List<SseEvent> closing = translator.end();

        assertThat(closing).extracting(SseEvent::event).containsExactly("error");
        assertThat(translator.failure().orElseThrow().cause()).isEqualTo(StreamEvent.Error.Cause.CUT);
    }
}
