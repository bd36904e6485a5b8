package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.agentfuse.gateway.dialect.UpstreamEvents.anthropicEvent;
import static io.agentfuse.gateway.dialect.UpstreamEvents.anthropicToolStream;
import static io.agentfuse.gateway.dialect.UpstreamEvents.feed;
import static io.agentfuse.gateway.dialect.UpstreamEvents.last;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiChunk;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiTextStream;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream that goes wrong: cut short, broken, of the wrong shape, or ending in the upstream's own error
 * event. The caller gets one error event in its own dialect, typed so that its outcome is known, and
 * never a malformed event passed through.
 */
class StreamTranslatorErrorsTest {

    private final ManualClock clock = new ManualClock();

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
