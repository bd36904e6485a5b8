package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Gemini answers and streams to the neutral model and back, and Google's errors to outcomes. */
class GeminiAnswerTranslationTest {

    private static final GeminiDialect GEMINI = GeminiDialect.INSTANCE;
    private static final ManualClock CLOCK = new ManualClock();

    private static JsonObject answer(JsonArray parts, String finishReason) {
        return new JsonObject().put("candidates", new JsonArray().add(new JsonObject()
                        .put("content", new JsonObject().put("role", "model").put("parts", parts))
                        .put("finishReason", finishReason).put("index", 0)))
                .put("usageMetadata", new JsonObject().put("promptTokenCount", 12).put("candidatesTokenCount", 5)
                        .put("thoughtsTokenCount", 3).put("totalTokenCount", 20))
                .put("modelVersion", "gemini-2.5-pro").put("responseId", "resp-1");
    }

    private static JsonObject text(String text) {
        return new JsonObject().put("text", text);
    }

    private static JsonObject call(String name, JsonObject args) {
        return new JsonObject().put("functionCall", new JsonObject().put("name", name).put("args", args));
    }

    @Test
    void aCompleteAnswerIsReadWithItsTextCallsUsageAndStopReasonAndWrittenBack() {
        JsonObject body = answer(new JsonArray().add(text("Checking.")).add(new JsonObject().put("text", "hmm").put("thought", true))
                .add(call("get_weather", new JsonObject().put("city", "Paris"))), "STOP");

        ChatResponse response = GEMINI.parseResponse(GEMINI.checkAnswer(Buffer.buffer(body.encode())), CLOCK);

        assertThat(response.content()).containsExactly(new ContentPart.Text("Checking."),
                new ContentPart.ToolCall("call_resp-1_0", "get_weather", "{\"city\":\"Paris\"}"));
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.usage()).isEqualTo(Usage.of(12, 8));
        assertThat(response.model()).isEqualTo("gemini-2.5-pro");
        JsonObject written = GEMINI.writeResponse(response);
        assertThat(written.getJsonArray("candidates").getJsonObject(0).getString("finishReason")).isEqualTo("STOP");
        assertThat(written.getJsonArray("candidates").getJsonObject(0).getJsonObject("content").getJsonArray("parts"))
                .hasSize(2);
        assertThat(GEMINI.usageOf(written)).isEqualTo(Usage.of(12, 8));
    }

    @Test
    void maxTokensAndSafetyAndABlockedPromptMapToLengthAndContentFilter() {
        assertThat(GEMINI.parseResponse(answer(new JsonArray().add(text("cut")), "MAX_TOKENS"), CLOCK).finishReason())
                .isEqualTo(FinishReason.LENGTH);
        assertThat(GEMINI.parseResponse(answer(new JsonArray(), "SAFETY"), CLOCK).finishReason())
                .isEqualTo(FinishReason.CONTENT_FILTER);
        JsonObject blocked = new JsonObject().put("promptFeedback", new JsonObject().put("blockReason", "SAFETY"));
        assertThat(GEMINI.parseResponse(GEMINI.checkAnswer(Buffer.buffer(blocked.encode())), CLOCK).finishReason())
                .isEqualTo(FinishReason.CONTENT_FILTER);
    }

    @Test
    void anAnswerOfAnotherShapeIsMalformed() {
        assertThatThrownBy(() -> GEMINI.checkAnswer(Buffer.buffer("{\"choices\":[]}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("candidates");
        assertThatThrownBy(() -> GEMINI.checkAnswer(Buffer.buffer("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":3}]}}]}")))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("candidates[0].content.parts[0].text");
    }

    @Test
    void aStreamIsDecodedChunkByChunkAndFinishedByTheChunkWithTheFinishReason() {
        StreamDecoder decoder = GEMINI.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        JsonObject first = answer(new JsonArray().add(text("Hel")), null);
        first.getJsonArray("candidates").getJsonObject(0).remove("finishReason");
        first.put("usageMetadata", new JsonObject().put("promptTokenCount", 12));
        events.addAll(decoder.decode(SseEvent.data(first.encode())));
        JsonObject second = answer(new JsonArray().add(text("lo")).add(call("lookup", new JsonObject().put("q", 1))), "STOP");
        events.addAll(decoder.decode(SseEvent.data(second.encode())));

        assertThat(events).containsExactly(new StreamEvent.Start("resp-1", "gemini-2.5-pro", Usage.of(12, 0)),
                new StreamEvent.TextDelta("Hel"), new StreamEvent.TextDelta("lo"),
                new StreamEvent.ToolCallStart(0, "call_resp-1_0", "lookup"), new StreamEvent.ToolCallDelta(0, "{\"q\":1}"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(12, 8)));
        assertThat(decoder.finished()).isTrue();
        assertThat(decoder.end()).isEmpty();
    }

    @Test
    void aStreamThatEndsWithoutAFinishReasonWasCutAndAnErrorChunkIsTheProvidersError() {
        StreamDecoder cut = GEMINI.streamDecoder();
        cut.decode(SseEvent.data(new JsonObject().put("candidates", new JsonArray().add(new JsonObject()
                .put("content", new JsonObject().put("parts", new JsonArray().add(text("a")))))).encode()));
        StreamDecoder failed = GEMINI.streamDecoder();

        List<StreamEvent> end = cut.end();
        List<StreamEvent> error = failed.decode(SseEvent.data("{\"error\":{\"code\":503,\"message\":\"The model is overloaded.\","
                + "\"status\":\"UNAVAILABLE\"}}"));

        assertThat(end).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                e -> assertThat(e.cause()).isEqualTo(StreamEvent.Error.Cause.CUT));
        assertThat(error).containsExactly(new StreamEvent.Error("UNAVAILABLE", "The model is overloaded."));
        assertThat(GEMINI.streamErrorOutcome("UNAVAILABLE")).isEqualTo(Outcome.OVERLOADED);
        assertThat(GEMINI.streamDecoder().decode(SseEvent.data("not json"))).singleElement()
                .isInstanceOfSatisfying(StreamEvent.Error.class, e -> assertThat(e.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED));
    }

    @Test
    void neutralEventsAreEncodedAsGeminiChunksWithEachToolCallWhole() {
        StreamEncoder encoder = GEMINI.streamEncoder(false, CLOCK);
        List<SseEvent> out = new ArrayList<>();
        for (StreamEvent event : List.of(new StreamEvent.Start("msg_1", "claude-sonnet-4-5", Usage.of(9, 1)),
                new StreamEvent.TextDelta("Hi"), new StreamEvent.ToolCallStart(0, "toolu_1", "get_weather"),
                new StreamEvent.ToolCallDelta(0, "{\"city\":"), new StreamEvent.ToolCallDelta(0, "\"Paris\"}"),
                new StreamEvent.Finish(FinishReason.TOOL_CALLS, null, Usage.of(0, 4)))) {
            out.addAll(encoder.encode(event));
        }

        assertThat(out).hasSize(3);
        JsonObject call = new JsonObject(out.get(1).data()).getJsonArray("candidates").getJsonObject(0).getJsonObject("content")
                .getJsonArray("parts").getJsonObject(0).getJsonObject("functionCall");
        assertThat(call).isEqualTo(new JsonObject().put("id", "toolu_1").put("name", "get_weather")
                .put("args", new JsonObject().put("city", "Paris")));
        JsonObject last = new JsonObject(out.get(2).data());
        assertThat(last.getJsonArray("candidates").getJsonObject(0).getString("finishReason")).isEqualTo("STOP");
        assertThat(GeminiResponseCodec.usage(last.getJsonObject("usageMetadata"))).isEqualTo(Usage.of(9, 4));
        StreamDecoder again = GEMINI.streamDecoder();
        List<StreamEvent> decoded = new ArrayList<>();
        out.forEach(event -> decoded.addAll(again.decode(event)));
        assertThat(decoded).contains(new StreamEvent.TextDelta("Hi"), new StreamEvent.ToolCallStart(0, "toolu_1", "get_weather"));
    }

    @Test
    void googleErrorsMapToOutcomesAndTheGatewaysErrorsAreWrittenInGooglesShape() {
        assertThat(GEMINI.errorOutcome(429, MultiMap.caseInsensitiveMultiMap(), "{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\"}}"))
                .isEqualTo(Outcome.RATE_LIMITED);
        assertThat(GEMINI.errorOutcome(503, MultiMap.caseInsensitiveMultiMap(), "{\"error\":{\"code\":503,\"status\":\"UNAVAILABLE\"}}")).isEqualTo(Outcome.OVERLOADED);
        assertThat(GEMINI.errorOutcome(504, MultiMap.caseInsensitiveMultiMap(), "[{\"error\":{\"code\":504,\"status\":\"DEADLINE_EXCEEDED\"}}]"))
                .isEqualTo(Outcome.TIMEOUT);
        assertThat(GEMINI.errorOutcome(400, MultiMap.caseInsensitiveMultiMap(), "{\"error\":{\"code\":400,\"status\":\"INVALID_ARGUMENT\"}}"))
                .isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(GEMINI.errorOutcome(500, MultiMap.caseInsensitiveMultiMap(), "not json")).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(GeminiErrors.isAuthFailure(400, "{\"error\":{\"details\":[{\"reason\":\"API_KEY_INVALID\"}]}}")).isTrue();
        JsonObject error = GEMINI.errorBody("circuit_open", "every model of the chain is open").getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(503);
        assertThat(error.getString("status")).isEqualTo("UNAVAILABLE");
        assertThat(error.getJsonArray("details").getJsonObject(0).getString("reason")).isEqualTo("circuit_open");
    }

    @ParameterizedTest
    @ValueSource(strings = {"requests", "tokens", "rate_limit_exceeded", "rate_limit_error"})
    void givenAnotherProvidersRateLimitInAStreamWhenAGeminiCallerIsToldThenItIsResourceExhausted(String type) {
        JsonObject error = new JsonObject(GEMINI.streamEncoder(false, CLOCK).encode(new StreamEvent.Error(type, "slow down"))
                .get(0).data()).getJsonObject("error");

        assertThat(error.getInteger("code")).isEqualTo(429);
        assertThat(error.getString("status")).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.getJsonArray("details").getJsonObject(0).getString("reason")).isEqualTo(type);
    }

    /** Google's JSON writes an unset field as {@code null}: each of these is an answer, read as if the field were left out. */
    private static JsonObject withNulls() {
        return new JsonObject().put("candidates", new JsonArray()
                        .add(new JsonObject().put("content", new JsonObject().put("role", "model").put("parts", new JsonArray()
                                        .add(new JsonObject().put("functionCall", new JsonObject().put("id", null)
                                                .put("name", "get_weather").put("args", null)))))
                                .put("finishReason", "STOP").put("index", 0)))
                .put("promptFeedback", new JsonObject().put("blockReason", null))
                .put("usageMetadata", new JsonObject().put("promptTokenCount", 12).put("candidatesTokenCount", 5))
                .put("modelVersion", null).put("responseId", null);
    }

    @Test
    void anAnswerWhoseUnsetFieldsAreNullIsReadAsIfTheyWereLeftOut() {
        ChatResponse response = GEMINI.parseResponse(GEMINI.checkAnswer(Buffer.buffer(withNulls().encode())), CLOCK);

        assertThat(response.content()).containsExactly(new ContentPart.ToolCall("call_0", "get_weather", "{}"));
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.id()).isEmpty();
        assertThat(response.model()).isEmpty();
        JsonObject partsNull = answer(null, "MAX_TOKENS");
        assertThat(GEMINI.parseResponse(GEMINI.checkAnswer(Buffer.buffer(partsNull.encode())), CLOCK).content()).isEmpty();
    }

    @Test
    void aStreamChunkWhoseUnsetFieldsAreNullIsDecodedAsIfTheyWereLeftOut() {
        StreamDecoder decoder = GEMINI.streamDecoder();

        List<StreamEvent> events = decoder.decode(SseEvent.data(withNulls().encode()));

        assertThat(events).filteredOn(StreamEvent.ToolCallStart.class::isInstance)
                .containsExactly(new StreamEvent.ToolCallStart(0, "call_0", "get_weather"));
        assertThat(events).filteredOn(StreamEvent.ToolCallDelta.class::isInstance)
                .containsExactly(new StreamEvent.ToolCallDelta(0, "{}"));
        assertThat(events).noneMatch(StreamEvent.Error.class::isInstance);
        StreamDecoder failed = GEMINI.streamDecoder();
        assertThat(failed.decode(SseEvent.data("{\"error\":{\"code\":500,\"status\":null,\"message\":null}}")))
                .singleElement().isInstanceOfSatisfying(StreamEvent.Error.class, error -> {
                    assertThat(error.type()).isEqualTo("INTERNAL");
                    assertThat(error.message()).isEqualTo("upstream stream error");
                });
    }

    @Test
    void anAnswerWhoseFunctionCallTheModelFailedToWriteIsMalformedCompleteOrStreamed() {
        JsonObject failed = new JsonObject().put("candidates", new JsonArray().add(new JsonObject()
                        .put("finishReason", "MALFORMED_FUNCTION_CALL").put("index", 0)
                        .put("finishMessage", "Malformed function call: print(default_api.get_weather(city=Paris")))
                .put("usageMetadata", new JsonObject().put("promptTokenCount", 12).put("totalTokenCount", 12));

        assertThatThrownBy(() -> GEMINI.checkAnswer(Buffer.buffer(failed.encode())))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("MALFORMED_FUNCTION_CALL");
        assertThat(GEMINI.streamDecoder().decode(SseEvent.data(failed.encode())))
                .singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                        error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED));
    }

    @Test
    void anAnswerWithoutCandidatesIsMalformedCompleteOrStreamedUnlessThePromptWasBlocked() {
        JsonObject usage = new JsonObject().put("promptTokenCount", 7).put("totalTokenCount", 7);
        JsonObject none = new JsonObject().put("usageMetadata", usage);
        JsonObject empty = new JsonObject().put("candidates", new JsonArray()).put("usageMetadata", usage);
        JsonObject blocked = none.copy().put("promptFeedback", new JsonObject().put("blockReason", "SAFETY"));

        for (JsonObject answer : List.of(none, empty)) {
            assertThatThrownBy(() -> GEMINI.checkAnswer(Buffer.buffer(answer.encode())))
                    .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("no candidates");
            StreamDecoder decoder = GEMINI.streamDecoder();
            assertThat(decoder.decode(SseEvent.data(answer.encode()))).noneMatch(StreamEvent.Error.class::isInstance);
            assertThat(decoder.end()).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class, error -> {
                assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED);
                assertThat(error.message()).contains("no candidates");
            });
        }
        assertThat(GEMINI.checkAnswer(Buffer.buffer(blocked.encode()))).isEqualTo(blocked);
        assertThat(GEMINI.streamDecoder().end()).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                error -> assertThat(error.cause()).as("nothing came: a cut").isEqualTo(StreamEvent.Error.Cause.CUT));
    }

    @Test
    void aStreamChunkWithoutCandidatesIsNoFaultWhenAnotherHasThem() {
        StreamDecoder decoder = GEMINI.streamDecoder();
        JsonObject usageOnly = new JsonObject().put("usageMetadata", new JsonObject().put("promptTokenCount", 7));

        List<StreamEvent> events = new ArrayList<>(decoder.decode(SseEvent.data(usageOnly.encode())));
        events.addAll(decoder.decode(SseEvent.data(answer(new JsonArray().add(text("Hi")), "STOP").encode())));

        assertThat(events).contains(new StreamEvent.TextDelta("Hi")).noneMatch(StreamEvent.Error.class::isInstance);
        assertThat(decoder.finished()).isTrue();
    }
}
