package io.agentfuse.gateway.provider;

import com.google.api.client.http.javanet.NetHttpTransport;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.provider.vertex.VertexAccessTokens;
import io.agentfuse.gateway.provider.vertex.VertexAnthropicDialect;
import io.agentfuse.gateway.provider.vertex.VertexEndpoint;
import io.agentfuse.gateway.provider.vertex.VertexGeminiDialect;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertAnswerWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertStreamWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.hello;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.read;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.sse;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.toolAnswer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vertex AI's codecs and the service-account tokens against the provider mock over loopback HTTP: Gemini and
 * Claude on Vertex are called with one token while it lives, a token near its end is replaced, and a quota
 * error is rate limited.
 */
class VertexWireTest {

    @RegisterExtension
    final ProviderMocksOnTheWire wire = new ProviderMocksOnTheWire();
    private final ExecutorService tokenWorker = Executors.newSingleThreadExecutor();

    @TempDir
    Path dir;

    @AfterEach
    void stopTokenWorker() {
        tokenWorker.shutdownNow();
    }

    private VertexAccessTokens serviceAccount(String project) throws Exception {
        Path file = dir.resolve(project + ".json");
        Files.writeString(file, wire.mock().newVertexServiceAccount(project).json().encodePrettily());
        return VertexAccessTokens.fromServiceAccountFile(file, NetHttpTransport::new); // direct: no proxy here
    }

    private Map<String, String> bearer(Dialect dialect, VertexAccessTokens tokens) throws Exception {
        return dialect.authHeaders(tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS));
    }

    private long tokenRequests() {
        return wire.mock().requests().stream().filter(request -> request.path().equals("/oauth2/token")).count();
    }

    @Test
    void geminiAndClaudeOnVertexAreCalledWithTheServiceAccountsTokenAndReadByTheCodecs() throws Exception {
        VertexAccessTokens tokens = serviceAccount("my-project");
        VertexEndpoint endpoint = new VertexEndpoint("my-project", "us-east5");
        wire.mock().script(toolAnswer(), toolAnswer(), toolAnswer());

        ChatResponse gemini = read(VertexGeminiDialect.INSTANCE, wire.post(endpoint.modelPath("gemini-2.5-pro", false),
                bearer(VertexGeminiDialect.INSTANCE, tokens), VertexGeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro")));
        ChatResponse claude = read(VertexAnthropicDialect.INSTANCE, wire.post(endpoint.modelPath("claude-sonnet-4-5@20250929", false),
                bearer(VertexAnthropicDialect.INSTANCE, tokens), VertexAnthropicDialect.INSTANCE.writeRequest(hello(false), "claude")));
        List<StreamEvent> claudeStream = sse(VertexAnthropicDialect.INSTANCE, wire.post(endpoint.modelPath("claude-sonnet-4-5@20250929", true),
                bearer(VertexAnthropicDialect.INSTANCE, tokens), VertexAnthropicDialect.INSTANCE.writeRequest(hello(true), "claude")));

        assertAnswerWithToolCall(gemini);
        assertAnswerWithToolCall(claude);
        assertStreamWithToolCall(claudeStream);
        assertThat(tokenRequests()).as("one token serves every call while it lives").isEqualTo(1);
    }

    @Test
    void aTokenTooCloseToItsEndIsReplacedBeforeItIsUsed() throws Exception {
        wire.restart(MockCredentials.defaults().withVertexTokenLifetime(Duration.ofMinutes(2)));
        VertexAccessTokens tokens = serviceAccount("my-project");

        String first = tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS);
        String second = tokens.accessToken(tokenWorker).get(30, TimeUnit.SECONDS);

        assertThat(second).isNotEqualTo(first);
        assertThat(tokenRequests()).isEqualTo(2);
    }

    @Test
    void vertexsQuotaErrorIsRateLimited() throws Exception {
        VertexAccessTokens tokens = serviceAccount("my-project");
        wire.mock().script(MockStep.builder().status(429).build());

        HttpResponse<byte[]> answer = wire.post(new VertexEndpoint("my-project", "us-east5").modelPath("gemini-2.5-pro", false),
                bearer(VertexGeminiDialect.INSTANCE, tokens), VertexGeminiDialect.INSTANCE.writeRequest(hello(false), "gemini-2.5-pro"));

        assertThat(VertexGeminiDialect.INSTANCE.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap(), new String(answer.body())))
                .isEqualTo(Outcome.RATE_LIMITED);
    }
}
