package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An answer is valid or an error: an upstream 200 that is not a well-formed answer of its dialect
 * is a failed attempt — fallen back from and counted — and never reaches the caller, for each
 * broken shape, both provider dialects, and callers of the same and of the other dialect.
 */
class MalformedAnswerScenarioTest {

    /** What the primary's provider speaks, which caller asks, and which model heads the chain. */
    enum Route {
        OPENAI_SAME("/v1/chat/completions", "gpt-4o-mini", "gpt-4o-mini", true),
        OPENAI_UPSTREAM_ANTHROPIC_CALLER("/v1/messages", "gpt-4o-mini", "gpt-4o-mini", true),
        ANTHROPIC_SAME("/v1/messages", "claude-sonnet-4", "claude-sonnet-4-5", false),
        ANTHROPIC_UPSTREAM_OPENAI_CALLER("/v1/chat/completions", "claude-sonnet-4", "claude-sonnet-4-5", false);

        final String path;
        final String model;
        final String upstreamModel;
        final boolean openAiUpstream;

        Route(String path, String model, String upstreamModel, boolean openAiUpstream) {
            this.path = path;
            this.model = model;
            this.upstreamModel = upstreamModel;
            this.openAiUpstream = openAiUpstream;
        }

        JsonObject request(boolean stream) {
            return path.equals("/v1/messages") ? anthropicRequest(model, stream) : openAiRequest(model, stream);
        }
    }

    private static final String OPENAI_ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}";
    private static final String ANTHROPIC_ANSWER = "{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}";

    private static final String OPENAI_CHUNK = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"},"
            + "\"finish_reason\":null}]}\n\n";
    private static final String ANTHROPIC_OPENING = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],"
            + "\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n"
            + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    static Stream<Arguments> brokenCompleteAnswers() {
        List<Arguments> cases = new ArrayList<>();
        for (Route route : Route.values()) {
            String other = route.openAiUpstream ? ANTHROPIC_ANSWER : OPENAI_ANSWER;
            String own = route.openAiUpstream ? OPENAI_ANSWER : ANTHROPIC_ANSWER;
            String wrongTypes = route.openAiUpstream ? own.replace("\"content\":\"Hi\"", "\"content\":42")
                    : own.replace("[{\"type\":\"text\",\"text\":\"Hi\"}]", "\"Hi\"");
            cases.add(Arguments.of(route, "empty 200", ""));
            cases.add(Arguments.of(route, "truncated JSON", own.substring(0, own.length() / 2)));
            cases.add(Arguments.of(route, "not JSON", "<html><body>502 Bad Gateway</body></html>"));
            cases.add(Arguments.of(route, "JSON of the other dialect", other));
            cases.add(Arguments.of(route, "wrong types", wrongTypes));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("brokenCompleteAnswers")
    void aBrokenCompleteAnswerIsAFailedAttemptAndTheNextStepAnswers(Route route, String shape, String body) {
        harness.mock.scriptForModel(route.upstreamModel, MockStep.builder().body(body).build());

        Reply reply = harness.client.post(route.path, route.request(false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(route.model + "=ERROR");
        assertThat(reply.json().encode()).contains(MockStep.DEFAULT_TEXT);
        assertThat(harness.breaker(route.model).snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aBrokenAnswerAtTheEndOfTheChainIsA502NamingWhatWasWrong(Route route) {
        harness.mock.defaultStep(MockStep.builder().body("{\"choices\": [tru").build());

        Reply reply = harness.client.post(route.path, route.request(false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.header("x-should-retry")).isEqualTo("false");
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("all_fallbacks_failed");
        assertThat(error.getString("message")).contains("malformed", "not JSON, or cut short")
                .doesNotContain("Exception", "java.");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void anAnswerWhoseUsageIsNegativeIsAFailedAttemptSaidInTheAnswersTerms(Route route) {
        String own = route.openAiUpstream ? OPENAI_ANSWER.replace("\"prompt_tokens\":3", "\"prompt_tokens\":-5")
                : ANTHROPIC_ANSWER.replace("\"input_tokens\":3", "\"input_tokens\":-5");
        harness.mock.defaultStep(MockStep.builder().body(own).build());

        Reply reply = harness.client.post(route.path, route.request(false));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("its usage tells -5 input and 1 output tokens: a count of tokens is never negative")
                .doesNotContain("must be >= 0");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aCompressedAnswerWhichTheGatewayDidNotAskForIsAFailedAttemptNeverRelayed(Route route) {
        String own = route.openAiUpstream ? OPENAI_ANSWER : ANTHROPIC_ANSWER;
        harness.mock.scriptForModel(route.upstreamModel, MockStep.builder().body(own).header("content-encoding", "gzip").build());

        Reply reply = harness.client.post(route.path, route.request(false));

        assertThat(harness.mock.requests().get(0).header("accept-encoding")).contains("identity");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.header("x-agentfuse-fallbacks")).isEqualTo(route.model + "=ERROR");
        assertThat(harness.breaker(route.model).snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aCompressedStreamOrRefusalIsAFailedAttemptNamingTheCoding(Route route) {
        harness.mock.scriptForModel(route.upstreamModel, MockStep.builder().chunks("Hel", "lo").header("content-encoding", "br").build());
        harness.mock.defaultStep(MockStep.builder().status(400).header("content-encoding", "gzip").build());

        Reply reply = harness.client.post(route.path, route.request(true));

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().getJsonObject("error").getString("message"))
                .contains("answered with Content-Encoding 'br', though the gateway asks for identity")
                .contains("answered with Content-Encoding 'gzip'");
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {200, 400, 503})
    void theGatewaysOwnKeysAreNeverQuotedToTheCallerThoughAProviderEchoesThem(int status) {
        // Each provider echoes what it was sent: x-api-key sk-ant-configured, or Bearer sk-oai-configured.
        for (String claude : new String[] {"claude-sonnet-4-5", "claude-haiku-4-5"}) {
            harness.mock.scriptForModel(claude, MockStep.builder().status(status).body("echo: x-api-key=sk-ant-configured")
                    .header("x-echo-api-key", "sk-ant-configured").build());
        }
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(status)
                .body("echo: authorization=Bearer sk-oai-configured").header("x-echo-authorization", "Bearer sk-oai-configured")
                .build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-sonnet-4", false));

        assertThat(reply.status()).isIn(400, 502);
        assertThat(reply.body()).doesNotContain("sk-ant-configured", "sk-oai-configured").contains("[redacted]");
        // A passed-through 4xx keeps the provider's headers, its echo of the key cleared too
        assertThat(reply.headers().entries()).noneMatch(header -> header.getValue().contains("sk-ant-configured")
                || header.getValue().contains("sk-oai-configured"));
    }

    static Stream<Route> routes() {
        return Stream.of(Route.values());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aStreamWhoseFirstEventIsNotJsonIsAFailedAttemptAndTheNextStepStreams(Route route) {
        harness.mock.scriptForModel(route.upstreamModel, MockStep.builder().body("data: {not json\n\n").build());

        StreamReply reply = harness.client.stream(route.path, route.request(true), Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-haiku-4");
        assertThat(reply.cutOff()).isFalse();
        assertThat(reply.data()).contains("Hello").doesNotContain("not json");
        assertThat(harness.breaker(route.model).snapshot().counts()).containsEntry("consecutiveErrors", 1L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aStreamLineThatIsNotJsonIsNeverRelayedAndTheStreamFailsVisibly(Route route) {
        String opening = route.openAiUpstream ? OPENAI_CHUNK : ANTHROPIC_OPENING;
        harness.mock.scriptForModel(route.upstreamModel,
                MockStep.builder().body(opening + "data: {\"broken\": tru\n\n").build());

        StreamReply reply = harness.client.stream(route.path, route.request(true), Map.of());

        assertThat(reply.data()).contains("Hel");
        assertThat(reply.events()).extracting(SseEvent::data).doesNotContain("{\"broken\": tru");
        assertFailedVisibly(reply, "not a JSON object");
        assertThat(harness.metricsText()).contains("agentfuse_stream_interruptions_total{model=\"" + route.model + "\"} 1.0");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aStreamCutWithoutItsTerminatorFailsVisibly(Route route) {
        String opening = route.openAiUpstream ? OPENAI_CHUNK : ANTHROPIC_OPENING;
        harness.mock.scriptForModel(route.upstreamModel, MockStep.builder().body(opening).build());

        StreamReply reply = harness.client.stream(route.path, route.request(true), Map.of());

        assertThat(reply.data()).contains("Hel");
        assertFailedVisibly(reply, "ended before");
    }

    /** The stream's last event is an error of the caller's dialect, and the connection was closed after it. */
    private static void assertFailedVisibly(StreamReply reply, String because) {
        assertThat(reply.status()).isEqualTo(200);
        SseEvent last = reply.events().get(reply.events().size() - 1);
        JsonObject error = new JsonObject(last.data()).getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("upstream_error");
        assertThat(error.getString("message")).contains(because).doesNotContain("Exception");
        assertThat(reply.cutOff()).as("closed, not ended cleanly").isTrue();
        assertThat(reply.events()).noneMatch(event -> event.isDone() || "message_stop".equals(event.event()));
    }
}
