package io.agentfuse.gateway.limits;

import java.util.List;

/**
 * The configuration of an {@link IsolatedGateway}: small size limits, so that a case reaches them
 * quickly, the product's default timeouts, and the models each case calls on the mock and the hostile
 * provider; a test class about one limit adds its own {@code server} keys.
 */
final class IsolatedGatewayConfig {

    /** Where {@link #withServerKeys} puts a test class's own {@code server} keys. */
    private static final String CLASS_KEYS = "  # the test class's own keys\n";

    /** The answer size limit of every class that does not set its own. */
    private static final String DEFAULT_UPSTREAM_BODY = "  maxUpstreamBody: 1MB\n";
    private static final String CONFIG = """
            server:
              port: 0
              eventLoops: 2
              maxBodySize: 10MB
              adminToken: "admin"
              maxConnections: 150
              maxUpstreamBody: 1MB
              maxSseEvent: 64KB
              maxEventQueue: 16KB
              cors: { allowedOrigins: ["https://app.example"] }
              # the test class's own keys
            providers:
              mock: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-mock" }
              hostile: { type: openai, baseUrl: "http://127.0.0.1:${HOSTILE_PORT}/v1", apiKey: "sk-hostile" }
            retry:
              maxAttempts: 1
            models:
              good: { provider: mock, upstreamModel: gpt-4o-mini }
              windowed: { provider: mock, upstreamModel: gpt-4o-mini, contextWindow: 40000 }
              huge-length: { provider: hostile }
              endless-chunked: { provider: hostile }
              huge-error: { provider: hostile }
              endless-event: { provider: hostile }
              big-stream: { provider: hostile, maxConcurrent: 100 }
              crumbs-stream: { provider: hostile }
              endless-preamble: { provider: hostile }
              plain: { provider: hostile, timeout: 60s }
              held: { provider: hostile, timeout: 60s }
              held-stream: { provider: hostile, maxConcurrent: 100 }
              big-answer: { provider: hostile, maxConcurrent: 100, timeout: %1$ds, breaker: { consecutiveTimeouts: { count: 3, slowerThan: %1$ds } } }
              held-continued: { provider: hostile, upstreamModel: held-stream, maxConcurrent: 100, streamContinuation: true, fallbacks: [good] }
            """.formatted(IsolatedGateway.BIG_ANSWER_TIMEOUT.toSeconds());

    private IsolatedGatewayConfig() {
    }

    /** The configuration with {@code serverKeys} (such as {@code "idleTimeout: 5s"}) added to its {@code server} section. */
    static String withServerKeys(List<String> serverKeys) {
        StringBuilder keys = new StringBuilder();
        serverKeys.forEach(key -> keys.append("  ").append(key).append('\n'));
        String config = CONFIG;
        if (serverKeys.stream().anyMatch(key -> key.startsWith("maxUpstreamBody:"))) {
            config = config.replace(DEFAULT_UPSTREAM_BODY, ""); // the class's own replaces it
        }
        return config.replace(CLASS_KEYS, keys.toString());
    }
}
