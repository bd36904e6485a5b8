package io.agentfuse.gateway.agents;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.util.List;

/**
 * The gateway in front of the mock provider, as the agent tests use it: every chain an agent
 * scenario needs, retries 20 ms apart (two attempts a step), and breakers that open after three
 * server errors in a row and stay open ten minutes, so that an open breaker's refusal is final
 * ({@code Retry-After} 600 s, more than the 20 s worth waiting for) and no slow agent sees it half-open.
 *
 * <p>One per test class, registered as an extension ({@code @RegisterExtension static final
 * AgentGateway gateway = new AgentGateway();}): started before the class's own {@code @BeforeAll},
 * {@link #reset()} before each scenario, closed after the class. Not thread-safe.
 */
final class AgentGateway implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    static final String CONFIG = """
            server:
              port: 0
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            retry:
              maxAttempts: 2
              initialDelay: 20ms
              multiplier: 2
              maxDelay: 1s
            breakers:
              default:
                consecutive5xx: 3
                resetTimeout: 10m
            models:
              claude-sonnet-4: { provider: anthropic, upstreamModel: claude-sonnet-4-5, fallbacks: [claude-haiku-4] }
              claude-haiku-4: { provider: anthropic, upstreamModel: claude-haiku-4-5 }
              claude-cross: { provider: anthropic, upstreamModel: claude-cross-1, fallbacks: [gpt-4o-mini] }
              claude-retired: { provider: anthropic, upstreamModel: claude-sonnet-4-20250514, fallbacks: [claude-haiku-4] }
              claude-lone: { provider: anthropic, upstreamModel: claude-lone-1 }
              gpt-4o-mini: { provider: openai }
              gpt-codex: { provider: openai, upstreamModel: gpt-codex-1, fallbacks: [gpt-4o-mini] }
              gpt-strict: { provider: openai, upstreamModel: gpt-strict-1, fallbacks: [claude-haiku-4] }
              gpt-cross: { provider: openai, upstreamModel: gpt-cross-1, fallbacks: [claude-lenient] }
              claude-lenient: { provider: anthropic, upstreamModel: claude-lenient-1, translate: lenient, maxOutputTokens: 64000 }
              gpt-lone: { provider: openai, upstreamModel: gpt-lone-1 }
            budgets:
              per-tenant: { scope: tenant, tokens: 1, window: 1d }   # counts only callers naming a tenant
            """;

    GatewayHarness harness;
    private long requestsBefore;

    @Override
    public void beforeAll(ExtensionContext context) {
        harness = GatewayHarness.start(CONFIG);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        harness.close();
    }

    /** The gateway's base URL, without a path. */
    String baseUrl() {
        return "http://127.0.0.1:" + harness.gateway.port();
    }

    /** Forgets the mock's script and requests, closes every breaker, and starts counting anew. */
    void reset() {
        harness.mock.reset();
        harness.gateway.runtime().registry().all().forEach(CircuitBreaker::reset);
        requestsBefore = harness.gatewayRequests();
    }

    /** The model requests the gateway answered since {@link #reset()}: what the agent sent. */
    long agentRequests() {
        return harness.gatewayRequests() - requestsBefore;
    }

    /** What the mock provider received since {@link #reset()}. */
    List<RecordedRequest> upstream() {
        return harness.mock.requests();
    }

    /** Opens the breaker of {@code model}, as three server errors in a row would. */
    void open(String model) {
        harness.breaker(model).open("agent test: opened by hand");
    }

    /** A directory of its own under {@code target/agent-homes} (an agent's home, config and work folder). */
    static Path home(String name) {
        return Path.of("target", "agent-homes", name).toAbsolutePath();
    }

    /** Prints what a scenario measured: the figures of the report, never asserted. */
    static void report(String agent, String scenario, long requests, AgentRun run) {
        System.out.printf("AGENT-FIGURES %-16s %-28s requests=%d seconds=%.2f exit=%d%n", agent, scenario, requests,
                run.seconds(), run.exitCode());
    }

    /** The body of a request the mock received, as JSON. */
    static JsonObject body(RecordedRequest request) {
        return request.jsonBody().orElseThrow();
    }
}
