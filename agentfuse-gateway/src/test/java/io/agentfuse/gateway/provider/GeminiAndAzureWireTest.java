package io.agentfuse.gateway.provider;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.provider.azure.AzureDialect;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertAnswerWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertStreamWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.hello;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.read;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.sse;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.toolAnswer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Gemini API's and Azure OpenAI's codecs against the provider mock over loopback HTTP: a request each
 * writes is answered complete and streamed and read back, and their overload, rate limit and wrong-key
 * answers are told apart.
 */
class GeminiAndAzureWireTest {

    @RegisterExtension
    final ProviderMocksOnTheWire wire = new ProviderMocksOnTheWire();

    @Test
    void aGeminiBodyIsAnsweredCompleteAndStreamedAndReadByTheCodec() throws Exception {
        Map<String, String> key = GeminiDialect.INSTANCE.authHeaders(MockCredentials.GEMINI_API_KEY);
        wire.mock().script(toolAnswer(), toolAnswer());

        ChatResponse complete = read(GeminiDialect.INSTANCE, wire.post(GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", false),
                key, GeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro")));
        List<StreamEvent> streamed = sse(GeminiDialect.INSTANCE, wire.post(GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", true),
                key, GeminiDialect.INSTANCE.writeRequest(hello(true), "gemini-2.5-pro")));

        assertAnswerWithToolCall(complete);
        assertThat(complete.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertStreamWithToolCall(streamed);
    }

    @Test
    void aGeminiOverloadIsOverloadedAndAWrongKeyIsAnAuthFailure() throws Exception {
        wire.mock().script(MockStep.builder().status(503).build());
        String path = GeminiDialect.INSTANCE.upstreamPath("gemini-2.5-pro", false);
        JsonObject body = GeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro");

        HttpResponse<byte[]> overloaded = wire.post(path, GeminiDialect.INSTANCE.authHeaders(MockCredentials.GEMINI_API_KEY), body);
        HttpResponse<byte[]> wrongKey = wire.post(path, GeminiDialect.INSTANCE.authHeaders("wrong"), body);

        assertThat(GeminiDialect.INSTANCE.errorOutcome(overloaded.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(overloaded.body())))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(io.agentfuse.gateway.provider.gemini.GeminiErrors.isAuthFailure(wrongKey.statusCode(), new String(wrongKey.body())))
                .isTrue();
    }

    @Test
    void azuresChatIsAnsweredAndStreamedAndItsStreamStartsWithTheProvidersId() throws Exception {
        Map<String, String> key = AzureDialect.CHAT.authHeaders(MockCredentials.AZURE_API_KEY);
        wire.mock().script(toolAnswer(), toolAnswer());

        ChatResponse complete = read(AzureDialect.CHAT, wire.post("/openai/v1" + AzureDialect.CHAT.upstreamPath("preview"), key,
                AzureDialect.CHAT.writeRequest(hello(false), "gpt-4.1-deployment")));
        List<StreamEvent> streamed = sse(AzureDialect.CHAT, wire.post("/openai/v1" + AzureDialect.CHAT.upstreamPath(null), key,
                AzureDialect.CHAT.sameDialectRequest(ChatRequest.shallowCopy(hello(true).received()), "gpt-4.1-deployment", true)));

        assertAnswerWithToolCall(complete);
        assertThat(((StreamEvent.Start) streamed.get(0)).id()).startsWith("chatcmpl-");
        assertStreamWithToolCall(streamed);
    }

    @Test
    void azuresRateLimitIsRateLimitedWithARetryAfter() throws Exception {
        wire.mock().script(MockStep.builder().status(429).build());

        HttpResponse<byte[]> answer = wire.post("/openai/v1/chat/completions", AzureDialect.CHAT.entraAuthHeaders(MockCredentials.AZURE_AD_TOKEN),
                AzureDialect.CHAT.writeRequest(hello(false), "gpt-4.1-deployment"));

        assertThat(answer.headers().firstValue("retry-after")).contains("1");
        assertThat(AzureDialect.CHAT.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(answer.body()))).isEqualTo(Outcome.RATE_LIMITED);
    }
}
