package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The seed's subagents snippet, with no {@code models:} section: {@code validate} accepts it and {@code serve} runs it. */
class SeedSnippetServeTest {

    /** The seed's block, verbatim. */
    private static final String SEED = """
            # OpenClaw 子Agent熔断配置
            # 通过fallback模型实现熔断效果
            subagents:
              maxConcurrent: 5
              defaultTimeout: 120  # 超时即熔断
              fallbacks:
                - "claude-haiku-4"      # 主模型失败时降级
                - "gpt-4o-mini"         # 二级降级
                - null                  # 最终放弃
            """;

    private final StopSignal stop = StopSignal.manual();
    private final StringWriter err = new StringWriter();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Vertx vertx;
    private MockProvider mock;

    @BeforeEach
    void startMock() throws Exception {
        vertx = Vertx.vertx();
        mock = MockProvider.start(vertx, 0).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopMock() throws Exception {
        stop.requestStop();
        vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void validateAcceptsTheSnippetAlone(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("seed.yaml"), SEED);
        StringWriter out = new StringWriter();

        int exitCode = run(out, "validate", "--config", file.toString()).get(20, TimeUnit.SECONDS);

        assertThat(exitCode).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith(file + " is valid.").contains("claude-haiku-4").contains("gpt-4o-mini");
    }

    @Test
    void serveRoutesTheSnippetsModelsToTheirProvidersWithoutAModelsSection(@TempDir Path directory) throws Exception {
        // Given the snippet and, so that nothing leaves the machine, the built-in providers pointed at the mock
        Path file = Files.writeString(directory.resolve("seed.yaml"), """
                providers:
                  anthropic: { baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: test }
                  openai: { baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: test }
                """ + SEED);
        mock.script(MockStep.builder().text("from haiku").build(), MockStep.builder().text("from mini").build());
        FirstMatch listening = new FirstMatch(Pattern.compile("listening on (http://\\S+)"));

        // When it is served and asked for each model of the chain, and for the model list
        CompletableFuture<Integer> exit = run(listening, "serve", "--config", file.toString(), "--port", "0");
        String baseUrl = listening.group(1);
        HttpResponse<String> haiku = post(baseUrl + "/v1/messages",
                "{\"model\":\"claude-haiku-4\",\"max_tokens\":50,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        HttpResponse<String> mini = post(baseUrl + "/v1/chat/completions",
                "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        HttpResponse<String> models = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/models"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        stop.requestStop();

        // Then each reached the mock in its own provider's dialect, and both are listed
        assertThat(haiku.statusCode()).as(haiku.body()).isEqualTo(200);
        assertThat(haiku.body()).contains("from haiku");
        assertThat(mini.statusCode()).as(mini.body()).isEqualTo(200);
        assertThat(mini.body()).contains("from mini");
        assertThat(mock.requests()).extracting(request -> request.path())
                .containsExactly("/v1/messages", "/v1/chat/completions");
        assertThat(models.body()).contains("\"id\":\"claude-haiku-4\"").contains("\"id\":\"gpt-4o-mini\"");
        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
    }

    private CompletableFuture<Integer> run(Writer out, String... args) {
        CommandLine commandLine = new CommandLine(new AgentfuseCommand(
                Map.of("MOCK_PORT", Integer.toString(mock.port())), () -> stop));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return CompletableFuture.supplyAsync(() -> commandLine.execute(args));
    }

    private HttpResponse<String> post(String url, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
