package io.agentfuse.gateway;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.pipeline.ContextStage;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;


import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/** Starting, stopping and extending the gateway programmatically. */
class GatewayServerTest {

    private GatewayHarness harness;
    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
        Await.result(vertx.close());
    }

    @Test
    void startsOnAFreePortAndStopsListeningWhenClosed() {
        GatewayServer gateway = Await.result(GatewayServer.start(vertx, AgentfuseConfig.defaults(),
                GatewayOptions.builder().port(0).build()));
        GatewayClient client = new GatewayClient(vertx, gateway.port());
        assertThat(client.get("/healthz").status()).isEqualTo(200);
        assertThat(gateway.baseUrl()).isEqualTo("http://127.0.0.1:" + gateway.port());

        Await.result(gateway.close());

        assertThat(Await.failure(vertx.createHttpClient().request(HttpMethod.GET, gateway.port(),
                "127.0.0.1", "/healthz").compose(request -> request.send()))).isNotNull();
    }

    @Test
    void theContextStageCanTagAndPassARequest() {
        ContextStage.Factory tagging = (runtime, models) -> request -> Future.succeededFuture(
                request.withContextLevel(runtime.contextBudget(request.model().name()).levelOf(10).name()));
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).contextStage(tagging).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("NORMAL");
    }

    @Test
    void theContextStageCanRejectARequestAsContextWindowFull() {
        ContextStage.Factory full = (runtime, models) -> request -> Future.failedFuture(
                new GatewayException(GatewayError.CONTEXT_WINDOW_FULL, "context window full"));
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).contextStage(full).build());

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false));

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void aContextStageThatThrowsStillGetsTheCallerAnAnswer() {
        ContextStage.Factory broken = (runtime, models) -> request -> {
            throw new IllegalStateException("stage bug");
        };
        harness = GatewayHarness.start(GatewayHarness.CONFIG, GatewayOptions.builder().port(0).contextStage(broken).build());

        Reply reply = harness.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false));

        assertThat(reply.status()).isEqualTo(500);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("internal_error");
        assertThat(reply.json().getJsonObject("error").getString("message")).doesNotContain("IllegalStateException")
                .contains("gateway failed");
    }

    @Test
    void theModelClientCallsThroughTheGuardedChain() {
        harness = GatewayHarness.start();
        JsonObject summaryRequest = openAiRequest("claude-haiku-4", false);

        ChatResponse answer = Await.result(harness.gateway.models().complete(Dialects.OPENAI.parseRequest(summaryRequest)));

        assertThat(answer.content()).isNotEmpty();
        assertThat(harness.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void theModelClientRefusesAModelItDoesNotServeSayingWhichItServes() {
        harness = GatewayHarness.start();

        Throwable refused = Await.failure(harness.gateway.models().complete(
                Dialects.OPENAI.parseRequest(openAiRequest("llama-3", false))));

        assertThat(refused).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error()).isEqualTo(GatewayError.MODEL_NOT_FOUND);
            assertThat(e.getMessage()).startsWith("model 'llama-3' is not configured; configured models: ")
                    .contains("claude-haiku-4");
        });
    }
}
