package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.ConnectException;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve} and {@code mock-provider}, run in-process on free ports and stopped by hand. */
class ServeCommandTest {

    private static final Path MOCK_EXAMPLE = Path.of("").toAbsolutePath().getParent().resolve("examples/mock.yaml");

    private final StopSignal stop = StopSignal.manual();
    private final StringWriter err = new StringWriter();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Runs the command line on its own thread; the future completes with its exit code. */
    private CompletableFuture<Integer> runInBackground(Writer out, String... args) {
        CommandLine commandLine = new CommandLine(new AgentfuseCommand(Map.of(), () -> stop));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return CompletableFuture.supplyAsync(() -> commandLine.execute(args));
    }

    private int run(String... args) throws Exception {
        return runInBackground(new StringWriter(), args).get(20, TimeUnit.SECONDS);
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheMockExampleUntilStoppedThenClosesTheServer() throws Exception {
        FirstMatch listening = new FirstMatch(Pattern.compile("listening on (http://\\S+)"));

        CompletableFuture<Integer> exit = runInBackground(listening, "serve", "--config", MOCK_EXAMPLE.toString(), "--port", "0");
        String baseUrl = listening.group(1);
        HttpResponse<String> health = get(baseUrl + "/healthz");
        stop.requestStop();

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
        assertThat(stop.awaitStopped(0)).isTrue();
        assertThat(listening.text()).startsWith("agentfuse gateway listening on http://127.0.0.1:");
        assertThat(catching(() -> get(baseUrl + "/healthz"))).isInstanceOf(ConnectException.class);
    }

    @Test
    void aConfigurationWithErrorsPrintsEveryErrorAndStartsNothing(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("broken.yaml"), "server:\n  port: 70000\nmodels:\n  m: {}\n");

        int exitCode = run("serve", "--config", file.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).contains("server.port").contains("models.m.provider").contains("2 errors; nothing started.");
    }

    @Test
    void aRedisStateStoreIsUsedAndTheGatewaySubscribesToItsFleet(@TempDir Path directory) throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            Path file = Files.writeString(directory.resolve("redis.yaml"),
                    "state: { store: redis, redis: { uri: \"" + redis.uri() + "\", keyPrefix: \"cli-test:\" } }\n");
            FirstMatch listening = new FirstMatch(Pattern.compile("listening on (http://\\S+)"));

            CompletableFuture<Integer> exit = runInBackground(listening, "serve", "--config", file.toString(), "--port", "0");
            String baseUrl = listening.group(1);
            Eventually.await("the gateway subscribes to cli-test:breakers", Duration.ofSeconds(5),
                    () -> subscribers(redis, "cli-test:breakers") == 1);
            HttpResponse<String> health = get(baseUrl + "/healthz");
            stop.requestStop();

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
        }
    }

    private static long subscribers(RedisServerProcess redis, String channel) {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().pubsubNumsub(channel).getOrDefault(channel, 0L);
        } finally {
            client.shutdown();
        }
    }

    @Test
    void theMockProviderPrintsItsUrlsAndAnswersUntilStopped() throws Exception {
        FirstMatch listening = new FirstMatch(Pattern.compile("listening on (http://\\S+)"));

        CompletableFuture<Integer> exit = runInBackground(listening, "mock-provider", "--port", "0");
        String baseUrl = listening.group(1);
        HttpResponse<String> requests = get(baseUrl + "/_mock/requests");
        stop.requestStop();

        assertThat(requests.statusCode()).isEqualTo(200);
        assertThat(requests.body()).isEqualTo("{\"requests\":[]}");
        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
        assertThat(listening.text()).contains("openai baseUrl:    " + baseUrl + "/v1").contains("/_mock/script");
    }

    @Test
    void theMockProviderAlsoRunsAMockMcpServerWhenAskedTo() throws Exception {
        FirstMatch listening = new FirstMatch(Pattern.compile("mock MCP server listening on (http://\\S+)/mcp"));

        CompletableFuture<Integer> exit = runInBackground(listening, "mock-provider", "--port", "0", "--mcp-port", "0");
        String mcpBase = listening.group(1);
        HttpResponse<String> requests = get(mcpBase + "/_mcp/requests");
        stop.requestStop();

        assertThat(requests.statusCode()).isEqualTo(200);
        assertThat(requests.body()).isEqualTo("{\"requests\":[]}");
        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
    }

    private static Throwable catching(ThrowingCall call) {
        try {
            call.run();
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Exception;
    }
}
