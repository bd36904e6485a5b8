package io.agentfuse.gateway.streams;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream contract's fault matrix (docs/streams.md; docs/design.md §13): each fault × each
 * caller dialect (Chat Completions, Messages, Responses, the Gemini API with {@code alt=sse}) ×
 * before or after the first byte, over loopback against the mock provider; and the faults the
 * Gemini provider's mock scripts itself with that provider behind the other three callers. Before
 * the first byte every fault is invisible — the fallback answers a clean, complete stream — unless
 * the fallback fails too (then an error status, no stream). After it the caller gets the first
 * content, the dialect's error event (for Responses then {@code response.failed}) and a connection
 * closed without the chunked body's end. Outcomes only; no durations.
 */
class StreamFaultMatrixTest {

    private static final String CONFIG = """
            server:
              port: 0
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "GEMINI_KEY" }
            retry:
              maxAttempts: 1
            models:
              primary-messages: { provider: anthropic, upstreamModel: up-messages, firstTokenTimeout: 1s, streamIdleTimeout: 1s, fallbacks: [backup-messages] }
              backup-messages: { provider: anthropic, upstreamModel: up-messages-backup }
              primary-chat: { provider: openai, upstreamModel: up-chat, firstTokenTimeout: 1s, streamIdleTimeout: 1s, fallbacks: [backup-chat] }
              backup-chat: { provider: openai, upstreamModel: up-chat-backup }
              primary-responses: { provider: openai, upstreamModel: up-responses, firstTokenTimeout: 1s, streamIdleTimeout: 1s, fallbacks: [backup-responses] }
              backup-responses: { provider: openai, upstreamModel: up-responses-backup }
              primary-claude: { provider: anthropic, upstreamModel: up-claude, fallbacks: [backup-claude] }
              backup-claude: { provider: anthropic, upstreamModel: up-claude-backup }
              primary-gemini: { provider: gemini, upstreamModel: up-gemini, firstTokenTimeout: 1s, streamIdleTimeout: 1s, fallbacks: [backup-gemini] }
              backup-gemini: { provider: gemini, upstreamModel: up-gemini-backup }
            """.replace("GEMINI_KEY", MockCredentials.GEMINI_API_KEY);

    /** Anthropic events, for the faults the mock cannot script: a stream that opens, and one with some text. */
    private static final String MESSAGE_START = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"up-claude\",\"content\":[],"
            + "\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n";
    private static final String FIRST_TEXT = "event: content_block_start\ndata: {\"type\":\"content_block_start\","
            + "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"one \"}}\n\n"
            + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n";
    private static final String MALFORMED = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\n\n";
    private static final String TOOL_CALL_BEGUN = "event: content_block_start\ndata: {\"type\":\"content_block_start\","
            + "\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,"
            + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \\\"Par\"}}\n\n";

    /** The caller's side: its endpoint and the request it sends for {@code model}. */
    enum Caller {
        CHAT, MESSAGES, RESPONSES, GEMINI;

        /** The endpoint; a Gemini-API caller names the model in the path and asks for SSE. */
        String path(String model) {
            return switch (this) {
                case CHAT -> "/v1/chat/completions";
                case MESSAGES -> "/v1/messages";
                case RESPONSES -> "/v1/responses";
                case GEMINI -> "/v1beta/models/" + model + ":streamGenerateContent?alt=sse";
            };
        }

        JsonObject request(String model) {
            JsonArray messages = new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"));
            return switch (this) {
                case CHAT -> new JsonObject().put("model", model).put("stream", true).put("messages", messages);
                case MESSAGES -> new JsonObject().put("model", model).put("stream", true).put("max_tokens", 100)
                        .put("messages", messages);
                case RESPONSES -> new JsonObject().put("model", model).put("stream", true).put("input", "Hi");
                case GEMINI -> new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("parts", new JsonArray().add(new JsonObject().put("text", "Hi")))));
            };
        }
    }

    /** The provider behind the primary model: one of the caller's own dialect, or the Gemini API's. */
    enum Upstream { CALLERS_DIALECT, GEMINI }

    enum Phase { BEFORE_FIRST_BYTE, AFTER_FIRST_BYTE }

    /** One row of the matrix: what the primary model's provider does, and on which models. */
    enum Fault {
        CUT, STALL, MALFORMED_CHUNK, IN_BAND_429, IN_BAND_529, LATE_FIRST_TOKEN, FALLBACK_ALSO_FAILING, TOOL_CALL_IN_FLIGHT;

        /** Malformed chunks and tool calls are written as raw Anthropic events: their rows run on the Anthropic chain. */
        boolean rawAnthropic() {
            return this == MALFORMED_CHUNK || this == TOOL_CALL_IN_FLIGHT;
        }

        /** The faults the Gemini provider's mock scripts itself (not written as raw events of another dialect). */
        boolean geminiScriptable() {
            return !rawAnthropic();
        }

        MockStep primary(Phase phase, boolean gemini) {
            boolean before = phase == Phase.BEFORE_FIRST_BYTE;
            // Google has no 529: its overloaded model is a 503 UNAVAILABLE.
            int overloaded = gemini ? 503 : 529;
            return switch (this) {
                case CUT, FALLBACK_ALSO_FAILING -> MockStep.builder().chunks("one ", "two ", "three")
                        .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(before ? 0 : 1).build();
                case STALL -> before ? MockStep.builder().firstChunkDelayMs(60_000).build()
                        : MockStep.builder().chunks("one ", "two").chunkDelayMs(60_000).build();
                // It would come, but later than firstTokenTimeout (before) or streamIdleTimeout (after).
                case LATE_FIRST_TOKEN -> before ? MockStep.builder().firstChunkDelayMs(3_000).build()
                        : MockStep.builder().chunks("one ", "two").chunkDelayMs(3_000).build();
                case IN_BAND_429, IN_BAND_529 -> MockStep.builder().chunks("one ", "two")
                        .streamError(this == IN_BAND_429 ? 429 : overloaded).streamErrorAfterChunks(before ? 0 : 1).build();
                case MALFORMED_CHUNK -> MockStep.builder().body(MESSAGE_START + (before ? "" : FIRST_TEXT) + MALFORMED).build();
                // Before the first byte no tool call can be under way: the stream opens and is cut.
                case TOOL_CALL_IN_FLIGHT -> before
                        ? MockStep.builder().chunks("one ").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(0).build()
                        : MockStep.builder().body(MESSAGE_START + FIRST_TEXT + TOOL_CALL_BEGUN).build();
            };
        }

        MockStep backup() {
            return this == FALLBACK_ALSO_FAILING ? MockStep.builder().status(500).build()
                    : this == TOOL_CALL_IN_FLIGHT ? MockStep.builder()
                    .toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris")).build()
                    : MockStep.builder().chunks("from ", "the ", "backup").build();
        }
    }

    /** Every fault × caller × phase on a provider of the caller's dialect; then the Gemini provider behind the others. */
    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (Caller caller : Caller.values()) {
                for (Phase phase : Phase.values()) {
                    cells.add(Arguments.of(fault, caller, phase, Upstream.CALLERS_DIALECT));
                    if (caller != Caller.GEMINI && fault.geminiScriptable()) {
                        cells.add(Arguments.of(fault, caller, phase, Upstream.GEMINI));
                    }
                }
            }
        }
        return cells.stream();
    }

    /** The chain a cell runs on: {@code primary-<chain>} falling back to {@code backup-<chain>}. */
    private static String chain(Fault fault, Caller caller, Upstream upstream) {
        return fault.rawAnthropic() ? "claude" : upstream == Upstream.GEMINI ? "gemini"
                : caller.name().toLowerCase(Locale.ROOT);
    }

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "{0} x {1} x {2} (provider: {3})")
    @MethodSource("cells")
    void eachFaultIsInvisibleBeforeTheFirstByteAndAnErrorEventWithAnAbortedBodyAfterIt(Fault fault, Caller caller, Phase phase,
                                                                                       Upstream served) {
        harness = GatewayHarness.start(CONFIG);
        String chain = chain(fault, caller, served);
        String primary = "primary-" + chain;
        String backup = "backup-" + chain;
        String upstream = "up-" + chain;
        harness.mock.scriptForModel(upstream, fault.primary(phase, chain.equals("gemini")));
        harness.mock.scriptForModel(upstream + "-backup", fault.backup());

        if (phase == Phase.BEFORE_FIRST_BYTE && fault == Fault.FALLBACK_ALSO_FAILING) {
            Reply reply = harness.client.post(caller.path(primary), caller.request(primary), Map.of());
            assertThat(reply.status()).as(reply.body()).isEqualTo(502);
            assertThat(reply.header("content-type")).startsWith("application/json");
            assertThat(errorType(caller, reply.json().getJsonObject("error"))).isEqualTo("all_fallbacks_failed");
            return;
        }
        StreamReply reply = harness.client.stream(caller.path(primary), caller.request(primary), Map.of());
        assertThat(reply.status()).isEqualTo(200);
        if (phase == Phase.BEFORE_FIRST_BYTE) {
            assertThat(reply.header("x-agentfuse-model")).as("the fallback answered").isEqualTo(backup);
            assertThat(reply.cutOff()).as("a clean end of the body").isFalse();
            assertThat(reply.events()).noneMatch(StreamFaultMatrixTest::reportsAnError);
            assertThat(reply.data()).contains(fault == Fault.TOOL_CALL_IN_FLIGHT ? "get_weather" : "backup");
            assertEndsComplete(caller, reply.events());
            if (fault == Fault.IN_BAND_429 || fault == Fault.IN_BAND_529) {
                assertThat(reply.header("x-agentfuse-fallbacks")).as("counted as the provider's error, not as a cut")
                        .isEqualTo(primary + "=" + inBandReason(fault, chain));
            }
        } else {
            assertThat(reply.header("x-agentfuse-model")).isEqualTo(primary);
            assertThat(reply.data()).as("the first content reached the caller").contains("one ");
            assertThat(reply.cutOff()).as("the body is aborted, never ended cleanly").isTrue();
            assertEndsWithError(caller, reply.events());
            if (fault == Fault.TOOL_CALL_IN_FLIGHT) {
                // Gemini sends a function call whole: a begun one is held back, never sent half.
                assertThat(reply.data().contains("get_weather")).as("the begun tool call reached the caller")
                        .isEqualTo(caller != Caller.GEMINI);
            }
            if (fault == Fault.IN_BAND_429) {
                assertThat(reply.events()).as("the provider's error reaches the caller, no cut is reported after it")
                        .anyMatch(event -> event.data().toLowerCase(Locale.ROOT).matches(".*(rate limit|exhausted).*"))
                        .noneMatch(event -> event.data().contains("ended before"));
            }
            assertThat(harness.requestsFor(upstream + "-backup")).as("nothing falls back after the first byte").isZero();
        }
    }

    private static boolean reportsAnError(SseEvent event) {
        if ("error".equals(event.event()) || "response.failed".equals(event.event())) {
            return true;
        }
        return event.data().startsWith("{") && new JsonObject(event.data()).getValue("error") != null;
    }

    private static void assertEndsComplete(Caller caller, List<SseEvent> events) {
        SseEvent last = events.get(events.size() - 1);
        switch (caller) {
            case CHAT -> assertThat(last.isDone()).isTrue();
            case MESSAGES -> assertThat(last.event()).isEqualTo("message_stop");
            case RESPONSES -> assertThat(last.event()).isEqualTo("response.completed");
            // Gemini has no end marker: the last chunk carries the finish reason.
            case GEMINI -> assertThat(new JsonObject(last.data()).getJsonArray("candidates").getJsonObject(0)
                    .getString("finishReason")).as(last.data()).isNotNull();
        }
    }

    private static void assertEndsWithError(Caller caller, List<SseEvent> events) {
        SseEvent last = events.get(events.size() - 1);
        switch (caller) {
            case CHAT -> assertThat(new JsonObject(last.data()).containsKey("error")).as(last.data()).isTrue();
            case MESSAGES -> assertThat(last.event()).isEqualTo("error");
            case RESPONSES -> {
                assertThat(last.event()).as("a Responses stream always ends with its status").isEqualTo("response.failed");
                assertThat(events.get(events.size() - 2).event()).isEqualTo("error");
            }
            case GEMINI -> {
                assertThat(last.event()).as("Gemini's events are data only").isNull();
                JsonObject error = new JsonObject(last.data()).getJsonObject("error");
                assertThat(error).as(last.data()).isNotNull();
                assertThat(error.getValue("code")).isInstanceOf(Integer.class);
                assertThat(error.getString("message")).isNotBlank();
                assertThat(error.getString("status")).isNotBlank();
            }
        }
    }

    /**
     * How an in-band error before the first byte is counted: a rate limit as such; an overload where
     * the provider can say so (Anthropic's {@code overloaded_error}, Google's {@code UNAVAILABLE}), while
     * OpenAI's in-stream {@code server_error} is a server error.
     */
    private static String inBandReason(Fault fault, String chain) {
        if (fault == Fault.IN_BAND_429) {
            return "RATE_LIMITED(HTTP 429)";
        }
        return chain.equals("chat") || chain.equals("responses") ? "SERVER_ERROR(HTTP 500)" : "OVERLOADED(HTTP 529)";
    }

    /** The error type of an error answer: Google's is the reason of its {@code ErrorInfo} detail. */
    private static String errorType(Caller caller, JsonObject error) {
        return caller == Caller.GEMINI ? error.getJsonArray("details").getJsonObject(0).getString("reason")
                : error.getString("type");
    }
}
