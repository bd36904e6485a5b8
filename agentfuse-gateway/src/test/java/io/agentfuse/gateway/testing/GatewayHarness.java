package io.agentfuse.gateway.testing;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.reload.ConfigFile;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A gateway and a mock provider, both real servers on 127.0.0.1 with ephemeral ports, the gateway
 * configured from YAML in which {@code ${MOCK_PORT}} names the mock's port. Retry waits and open
 * times are scaled down (milliseconds, not seconds) so tests run fast; no test asserts timings.
 */
public final class GatewayHarness implements AutoCloseable {

    /** The admin token of {@link #CONFIG}. */
    public static final String ADMIN_TOKEN = "test-admin-token";

    /**
     * sonnet (Anthropic) → haiku (Anthropic) → gpt-4o-mini (OpenAI); one attempt per step; the
     * default breaker opens after 3 server errors in a row and stays open 300 ms.
     */
    public static final String CONFIG = """
            server:
              port: 0
              maxBodySize: 16KB
              adminToken: "test-admin-token"
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            retry:
              maxAttempts: 1
              initialDelay: 20ms
              multiplier: 2
              maxDelay: 5s
            breakers:
              default:
                consecutive5xx: 3
                resetTimeout: 300ms
            models:
              claude-sonnet-4:
                provider: anthropic
                upstreamModel: claude-sonnet-4-5
                fallbacks: [claude-haiku-4, gpt-4o-mini]
              claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              gpt-4o-mini: { provider: openai, fallbacks: [claude-haiku-4] }
            """;

    /**
     * Anthropic, OpenAI and Gemini providers on the mock, as entries of {@code providers:}, each with
     * a key the mock takes.
     */
    public static final String CHAT_PROVIDERS = """
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
              gemini: { type: gemini, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "%s" }
            """.formatted(MockCredentials.GEMINI_API_KEY);

    /**
     * A {@code bedrock} provider on the mock, as an entry of {@code providers:}; its keys are the
     * mock's ({@link #startWithAwsKeys}).
     */
    public static final String BEDROCK_PROVIDER = """
              bedrock:
                type: bedrock
                baseUrl: "http://127.0.0.1:${MOCK_PORT}"
                region: us-east-1
                accessKeyId: ${AWS_ACCESS_KEY_ID}
                secretAccessKey: ${AWS_SECRET_ACCESS_KEY}
            """;

    public final Vertx vertx;
    public final MockProvider mock;
    public final GatewayServer gateway;
    public final GatewayClient client;

    private GatewayHarness(Vertx vertx, MockProvider mock, GatewayServer gateway) {
        this.vertx = vertx;
        this.mock = mock;
        this.gateway = gateway;
        this.client = new GatewayClient(vertx, gateway.port());
    }

    /** A gateway configured by {@link #CONFIG}. */
    public static GatewayHarness start() {
        return start(CONFIG);
    }

    /**
     * {@link #CONFIG} with {@code settings} (YAML lines such as {@code "timeout: 300ms"}, several
     * joined by {@code "\n    "}) added to {@code claude-sonnet-4}, the first step of its chain.
     */
    public static String configWithPrimary(String settings) {
        return CONFIG.replace("upstreamModel: claude-sonnet-4-5", "upstreamModel: claude-sonnet-4-5\n    " + settings);
    }

    /** A gateway configured by {@code yaml}, with {@code ${MOCK_PORT}} set. */
    public static GatewayHarness start(String yaml) {
        return start(yaml, GatewayOptions.builder().port(0).build());
    }

    /** A gateway configured by {@code yaml}, with {@code ${MOCK_PORT}} set, started with {@code options}. */
    public static GatewayHarness start(String yaml, GatewayOptions options) {
        return start(GatewayVertx.create(), yaml, options);
    }

    /** A gateway configured by {@code yaml}, with {@code ${MOCK_PORT}} set, started with {@code options} on {@code vertx}, which {@link #close()} closes. */
    public static GatewayHarness start(Vertx vertx, String yaml, GatewayOptions options) {
        return start(vertx, yaml, options, mock -> Map.of());
    }

    /**
     * A gateway configured by {@code yaml}, with {@code ${MOCK_PORT}} set and the variables
     * {@code environment} makes of the started mock (a Vertex service account's credentials file, say).
     */
    public static GatewayHarness start(String yaml, Function<MockProvider, Map<String, String>> environment) {
        return start(GatewayVertx.create(), yaml, GatewayOptions.builder().port(0).build(), environment);
    }

    /** A gateway configured by {@code yaml}, with {@code ${MOCK_PORT}} and the mock's AWS keys set ({@link #BEDROCK_PROVIDER}). */
    public static GatewayHarness startWithAwsKeys(String yaml) {
        return start(yaml, mock -> Map.of("AWS_ACCESS_KEY_ID", mock.credentials().awsAccessKeyId(),
                "AWS_SECRET_ACCESS_KEY", mock.credentials().awsSecretAccessKey()));
    }

    /**
     * A gateway with one model, {@code claude-on-bedrock}, on a Bedrock provider whose mock takes
     * temporary AWS keys only, with {@code sessionToken}: the keys set as for {@link #startWithAwsKeys},
     * the token as {@code ${AWS_SESSION_TOKEN}}; one attempt per call.
     */
    public static GatewayHarness startWithAwsSessionKeys(String sessionToken) {
        String yaml = """
                server: { port: 0 }
                providers:
                """ + BEDROCK_PROVIDER + """
                    sessionToken: ${AWS_SESSION_TOKEN}
                retry: { maxAttempts: 1 }
                models:
                  claude-on-bedrock: { provider: bedrock, upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0" }
                """;
        return start(GatewayVertx.create(), yaml, GatewayOptions.builder().port(0).build(),
                MockCredentials.defaults().withAwsSessionToken(sessionToken),
                mock -> Map.of("AWS_ACCESS_KEY_ID", mock.credentials().awsAccessKeyId(), "AWS_SECRET_ACCESS_KEY",
                        mock.credentials().awsSecretAccessKey(), "AWS_SESSION_TOKEN", sessionToken));
    }

    private static GatewayHarness start(Vertx vertx, String yaml, GatewayOptions options,
                                        Function<MockProvider, Map<String, String>> environment) {
        return start(vertx, yaml, options, MockCredentials.defaults(), environment);
    }

    private static GatewayHarness start(Vertx vertx, String yaml, GatewayOptions options, MockCredentials credentials,
                                        Function<MockProvider, Map<String, String>> environment) {
        MockProvider mock = Await.result(MockProvider.start(vertx, "127.0.0.1", 0, credentials));
        Map<String, String> variables = new HashMap<>(environment.apply(mock));
        variables.put("MOCK_PORT", Integer.toString(mock.port()));
        AgentfuseConfig config = ConfigLoader.parse(yaml, "test.yaml", variables);
        GatewayServer gateway = Await.result(GatewayServer.start(vertx, config, options));
        return new GatewayHarness(vertx, mock, gateway);
    }

    /**
     * A gateway configured by the YAML file {@code file}, with {@code ${MOCK_PORT}} set, that reloads
     * it on request and checks it for changes every {@code pollInterval} ({@link Duration#ZERO}: never).
     */
    public static GatewayHarness startFromFile(Path file, Duration pollInterval) {
        return startFromFile(file, pollInterval, Map.of());
    }

    /** Like {@link #startFromFile(Path, Duration)}, with {@code variables} in the environment beside {@code MOCK_PORT}. */
    public static GatewayHarness startFromFile(Path file, Duration pollInterval, Map<String, String> variables) {
        Vertx vertx = GatewayVertx.create();
        MockProvider mock = Await.result(MockProvider.start(vertx, 0));
        Map<String, String> environment = new HashMap<>(variables);
        environment.put("MOCK_PORT", Integer.toString(mock.port()));
        GatewayOptions options = GatewayOptions.builder().port(0)
                .configFile(new ConfigFile(file, environment, pollInterval)).build();
        GatewayServer gateway = Await.result(GatewayServer.start(vertx, ConfigLoader.load(file, environment), options));
        return new GatewayHarness(vertx, mock, gateway);
    }

    /**
     * Writes {@code yaml} as {@code directory}'s {@code agentfuse.yaml} at once, as editors and
     * orchestrators do (a new file renamed over the old): a watcher never reads it half-written.
     */
    public static Path writeConfig(Path directory, String yaml) throws IOException {
        Path next = Files.writeString(Files.createTempFile(directory, "next", ".yaml"), yaml);
        return Files.move(next, directory.resolve("agentfuse.yaml"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** {@code POST /admin/reload} with {@link #ADMIN_TOKEN}. */
    public GatewayClient.Reply reload() {
        return client.post("/admin/reload", new JsonObject(), Map.of("authorization", "Bearer " + ADMIN_TOKEN));
    }

    /** The breaker of {@code model}. */
    public CircuitBreaker breaker(String model) {
        return gateway.runtime().registry().find("model:" + model).orElseThrow();
    }

    /** The requests the mock received for the upstream model {@code upstreamModel}. */
    public long requestsFor(String upstreamModel) {
        return mock.requestsFor(upstreamModel).size();
    }

    /** The gateway's metrics in Prometheus text. */
    public String metricsText() {
        return gateway.metrics().scrape();
    }

    /** How many model requests the gateway has answered so far (any status, any dialect). */
    public long gatewayRequests() {
        return metricsText().lines().filter(line -> line.startsWith("agentfuse_requests_total{"))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** An OpenAI chat request for {@code model}. */
    public static JsonObject openAiRequest(String model, boolean stream) {
        JsonObject body = new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
        return stream ? body.put("stream", true) : body;
    }

    /** An Anthropic messages request for {@code model}. */
    public static JsonObject anthropicRequest(String model, boolean stream) {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
        return stream ? body.put("stream", true) : body;
    }

    @Override
    public void close() {
        try {
            Await.result(gateway.close());
        } finally {
            Await.result(vertx.close());
        }
    }
}
