package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;

/**
 * An {@link UpstreamClient} against the mock providers over loopback, with an OpenAI and an Anthropic
 * endpoint on them: started before and stopped after each test of the client and its streams.
 */
final class UpstreamHarness implements BeforeEachCallback, AfterEachCallback {

    Vertx vertx;
    MockProvider mock;
    UpstreamClient client;
    ProviderEndpoint openAi;
    ProviderEndpoint anthropic;

    @Override
    public void beforeEach(ExtensionContext context) {
        vertx = GatewayVertx.create();
        mock = Await.result(MockProvider.start(vertx, 0));
        client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
        openAi = new ProviderEndpoint("openai", Dialects.OPENAI, mock.openAiBaseUrl(), "sk-test-openai");
        anthropic = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC, mock.anthropicBaseUrl(), "sk-test-anthropic");
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Await.result(vertx.close());
    }

    /** A small chat request for {@code model}, which the body tells apart from others. */
    static JsonObject body(String model) {
        return new JsonObject().put("model", model).put("max_tokens", 50)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    /** The answer to a small call to {@code provider}. */
    UpstreamResponse send(ProviderEndpoint provider) {
        return Await.result(client.send(UpstreamRequest.of(provider, body("m")), Duration.ofSeconds(10)));
    }

    /** The failure of a small call to {@code provider} within {@code timeout}. */
    Throwable sendFailure(ProviderEndpoint provider, Duration timeout) {
        return Await.failure(client.send(UpstreamRequest.of(provider, body("m")), timeout));
    }
}
