package io.agentfuse.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.ObservabilityConfig;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.tracing.OtlpReceiver.ReceivedSpan;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's OpenTelemetry traces (docs/design.md §14), exported over OTLP/HTTP to a receiver on
 * loopback that decodes them: a request that retried and fell back is one trace under the caller's
 * trace id, with the request's span and one span per attempt, each with its outcome; the provider
 * is called with the attempt's trace context; an MCP call has its span and hands its context to the
 * server in {@code params._meta}.
 */
class OtlpTracesTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    private final OtlpReceiver receiver = new OtlpReceiver();

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void aRequestThatRetriedAndFellBackIsOneTraceWithASpanPerAttempt() {
        GatewayHarness harness = GatewayHarness.start(GatewayHarness.CONFIG + """
                  primary: { provider: openai, upstreamModel: primary-upstream, fallbacks: [backup], retry: { maxAttempts: 2 } }
                  backup: { provider: openai, upstreamModel: backup-upstream }
                observability: { otlp: { endpoint: "%s" } }
                """.formatted(receiver.endpoint()));
        Reply reply;
        List<RecordedRequest> upstreamCalls;
        try {
            harness.mock.scriptForModel("primary-upstream", MockStep.builder().status(500).times(2).build());
            reply = harness.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("primary", false),
                    Map.of("traceparent", TRACEPARENT));
            upstreamCalls = harness.mock.requests();
        } finally {
            harness.close(); // exports what is left
        }

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(receiver.contentTypes()).allMatch(type -> type.startsWith("application/x-protobuf"));
        List<ReceivedSpan> trace = receiver.spans().stream().filter(span -> span.traceId().equals(TRACE_ID)).toList();
        ReceivedSpan request = trace.stream().filter(span -> span.kind() == OtlpReceiver.KIND_SERVER).findFirst().orElseThrow(
                () -> new AssertionError("no request span in " + receiver.spans()));
        assertThat(request.parentSpanId()).as("the caller's span is the parent").isEqualTo(CALLER_SPAN);
        assertThat(request.name()).isEqualTo("chat primary");
        assertThat(request.attributes()).containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.request.model", "primary")
                .containsEntry("gen_ai.response.model", "backup")
                .containsEntry("http.response.status_code", 200L)
                .containsEntry("agentfuse.fallbacks", 1L)
                .containsKey("gen_ai.usage.input_tokens").containsKey("gen_ai.usage.output_tokens");

        List<ReceivedSpan> attempts = trace.stream().filter(span -> span.kind() == OtlpReceiver.KIND_CLIENT)
                .sorted(Comparator.comparing((ReceivedSpan span) -> (String) span.attribute("agentfuse.step")).reversed()
                        .thenComparing(span -> (Long) span.attribute("agentfuse.attempt")))
                .toList();
        assertThat(attempts).allSatisfy(attempt -> assertThat(attempt.parentSpanId()).isEqualTo(request.spanId()));
        assertThat(attempts).extracting(span -> span.attribute("agentfuse.step") + "#" + span.attribute("agentfuse.attempt")
                        + "=" + span.attribute("agentfuse.outcome"))
                .containsExactly("primary#1=SERVER_ERROR", "primary#2=SERVER_ERROR", "backup#1=SUCCESS");
        assertThat(attempts).allSatisfy(attempt -> assertThat(attempt.attributes())
                .containsEntry("gen_ai.provider.name", "openai").containsKey("agentfuse.breaker.state"));
        assertThat(attempts.get(0).statusCode()).isEqualTo(OtlpReceiver.STATUS_ERROR);
        assertThat(attempts.get(2).attribute("gen_ai.request.model")).isEqualTo("backup-upstream");

        // each call to the provider carried its attempt's context
        assertThat(upstreamCalls).hasSize(3).allSatisfy(call -> assertThat(call.headers().get("traceparent"))
                .startsWith("00-" + TRACE_ID + "-"));
        assertThat(upstreamCalls).extracting(call -> call.headers().get("traceparent").substring(36, 52))
                .containsExactlyInAnyOrderElementsOf(attempts.stream().map(ReceivedSpan::spanId).toList());
    }

    @Test
    void anMcpToolCallHasItsSpanAndHandsItsContextToTheServerInMeta() {
        Vertx vertx = GatewayVertx.create();
        MockMcpServer mcp = Await.result(MockMcpServer.start(vertx, 0));
        GatewayHarness harness = GatewayHarness.start(vertx, GatewayHarness.CONFIG + """
                mcpServers:
                  db: { url: "%s", timeout: 5s }
                observability: { otlp: { endpoint: "%s" } }
                """.formatted(mcp.url(), receiver.endpoint()), GatewayOptions.builder().port(0).build());
        List<RecordedRequest> received;
        try {
            harness.client.post("/mcp/db", new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call")
                            .put("params", new JsonObject().put("name", "query").put("arguments", new JsonObject())),
                    Map.of("accept", "application/json, text/event-stream", "traceparent", TRACEPARENT));
            received = mcp.requests();
        } finally {
            harness.close();
        }

        ReceivedSpan call = receiver.spans().stream().filter(span -> span.traceId().equals(TRACE_ID)).findFirst()
                .orElseThrow(() -> new AssertionError("no span of the caller's trace in " + receiver.spans()));
        assertThat(call.name()).isEqualTo("tools/call query");
        assertThat(call.parentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(call.attributes()).containsEntry("mcp.method.name", "tools/call").containsEntry("gen_ai.tool.name", "query");
        JsonObject meta = new JsonObject(received.stream().filter(request -> request.body().contains("tools/call"))
                .findFirst().orElseThrow().body()).getJsonObject("params").getJsonObject("_meta");
        assertThat(meta.getString("traceparent")).isEqualTo("00-" + TRACE_ID + "-" + call.spanId() + "-01");
    }

    @Test
    void tracesAreOffUnlessTheFileOrTheStandardVariablesAskForThem() {
        ObservabilityConfig none = new ObservabilityConfig(Optional.empty());
        ObservabilityConfig endpoint = new ObservabilityConfig(Optional.of(URI.create("http://collector:4318")));

        assertThat(Tracing.start(none, Map.of())).isSameAs(Tracing.OFF);
        assertThat(Tracing.asked(none, Map.of("OTEL_SERVICE_NAME", "gateway"))).isFalse();
        assertThat(Tracing.asked(none, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"))).isTrue();
        assertThat(Tracing.asked(none, Map.of("OTEL_TRACES_EXPORTER", "otlp"))).isTrue();
        assertThat(Tracing.asked(endpoint, Map.of())).isTrue();
        assertThat(Tracing.asked(endpoint, Map.of("OTEL_SDK_DISABLED", "true"))).isFalse();
        assertThat(Tracing.asked(endpoint, Map.of("OTEL_TRACES_EXPORTER", "none"))).isFalse();
        assertThat(Tracing.OFF.request(io.vertx.core.MultiMap.caseInsensitiveMultiMap())).isSameAs(RequestTrace.NONE);
    }
}
