package io.agentfuse.gateway.admin;

import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Liveness, metrics, the live event stream and the dashboard. */
class ObservabilityTest {

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void healthzAnswersOk() {
        Reply reply = harness.client.get("/healthz");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getString("status")).isEqualTo("ok");
    }

    @Test
    void metricsCountRequestsAttemptsFallbacksAndBreakerStates() {
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).build());
        harness.client.post("/v1/messages", anthropicRequest("claude-sonnet-4", false));

        Reply metrics = harness.client.get("/metrics");

        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.header("content-type")).startsWith("text/plain");
        assertThat(metrics.body())
                .contains("agentfuse_requests_total{dialect=\"anthropic\",model=\"claude-sonnet-4\",status=\"200\"} 1.0")
                .contains("agentfuse_upstream_attempts_total{model=\"claude-sonnet-4\",outcome=\"SERVER_ERROR\"} 1.0")
                .contains("agentfuse_upstream_attempts_total{model=\"claude-haiku-4\",outcome=\"SUCCESS\"} 1.0")
                .contains("agentfuse_fallbacks_total{from=\"claude-sonnet-4\",reason=\"SERVER_ERROR\",to=\"claude-haiku-4\"} 1.0")
                .contains("agentfuse_breaker_state{name=\"model:claude-sonnet-4\",state=\"CLOSED\"} 1.0")
                .contains("agentfuse_breaker_calls_total{name=\"model:claude-sonnet-4\",outcome=\"SERVER_ERROR\"} 1.0")
                .contains("agentfuse_breaker_calls_total{name=\"model:claude-haiku-4\",outcome=\"SUCCESS\"} 1.0")
                .contains("agentfuse_request_duration_seconds_count");
    }

    @Test
    void modelCallsAreMeteredByTheGenAiConventions() {
        harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
        harness.client.stream("/v1/messages", anthropicRequest("claude-haiku-4", true), Map.of());

        String metrics = harness.client.get("/metrics").body();

        String labels = "gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"anthropic\",gen_ai_request_model=\"claude-haiku-4-5\"";
        assertThat(metrics)
                .contains("gen_ai_client_operation_duration_seconds_count{error_type=\"none\"," + labels + "} 2")
                .contains("gen_ai_server_time_to_first_token_seconds_count{" + labels + "} 1")
                // docs/design.md §9's {type} and OpenTelemetry's gen_ai.token.type, both on one series.
                .contains("gen_ai_client_token_usage_count{" + labels + ",gen_ai_token_type=\"input\",type=\"input\"} 2")
                .contains("gen_ai_client_token_usage_count{" + labels + ",gen_ai_token_type=\"output\",type=\"output\"} 2");
    }

    @Test
    void breakerMetricsCountTransitionsByTriggerAndRejectedCalls() {
        // Open long enough that the fourth call is surely rejected, however long the machine takes between calls
        harness.close();
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5m"));
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).times(3).build());
        for (int i = 0; i < 4; i++) {
            harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));
        }

        String metrics = harness.client.get("/metrics").body();

        assertThat(metrics)
                .contains("agentfuse_breaker_transitions_total{from=\"CLOSED\",name=\"model:claude-haiku-4\",reason=\"consecutive5xx\",to=\"OPEN\"} 1.0")
                .contains("agentfuse_breaker_not_permitted_calls_total{name=\"model:claude-haiku-4\"} 1.0")
                .contains("agentfuse_breaker_state{name=\"model:claude-haiku-4\",state=\"OPEN\"} 1.0");
    }

    @Test
    void theEventStreamSendsEveryStateTransition() {
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        AtomicBoolean subscribed = new AtomicBoolean();
        HttpClient http = harness.vertx.createHttpClient();
        harness.vertx.runOnContext(v -> http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1")
                        .setPort(harness.gateway.port()).setURI("/admin/events"))
                .compose(request -> request.send())
                .onSuccess(response -> {
                    response.handler(new SseParser(events::add)::feed);
                    subscribed.set(true); // the head is sent once the subscription is registered
                }));
        Eventually.holds(harness.vertx, subscribed::get);

        harness.breaker("claude-haiku-4").forceOpen("drill");

        Eventually.holds(harness.vertx, () -> !events.isEmpty());
        JsonObject transition = new JsonObject(events.get(0).data());
        assertThat(events.get(0).event()).isEqualTo("transition");
        assertThat(transition.getString("breaker")).isEqualTo("model:claude-haiku-4");
        assertThat(transition.getString("from")).isEqualTo("CLOSED");
        assertThat(transition.getString("to")).isEqualTo("FORCED_OPEN");
        assertThat(transition.getString("reason")).contains("drill");
        Await.result(http.close());
    }

    @Test
    void theDashboardIsOneSelfContainedPage() {
        Reply page = harness.client.get("/");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("content-type")).startsWith("text/html");
        assertThat(page.body()).contains("admin/breakers").contains("admin/events")
                .doesNotContain("<script src").doesNotContain("<link rel=\"stylesheet\"");
    }
}
