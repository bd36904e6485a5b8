package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One mistake per file, each reported as exactly one error that names the key path, the line
 * and what is wrong. Files are written line by line so that the expected line is the index + 1.
 */
class InvalidConfigTest {

    private static final Map<String, String> ENVIRONMENT = Map.of("PORT", "8080");
    private static final String PROVIDER = "providers: { anthropic: {} }";

    record Case(String name, String yaml, String path, int line, String message) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                // unknown keys, with a suggestion
                new Case("unknown section", yaml("modles: {}"), "modles", 1, "unknown key; did you mean \"models\"?"),
                new Case("unknown key in a section", yaml("server:", "  prot: 8080"), "server.prot", 2,
                        "unknown key; did you mean \"port\"?"),
                new Case("unknown key without a near match", yaml("server:", "  colour: blue"), "server.colour", 2,
                        "unknown key; expected one of: port, maxBodySize, adminToken"),
                new Case("unknown key in a trigger map", yaml("breakers:", "  b:",
                        "    consecutiveTimeouts: { count: 3, slower: 5s }"),
                        "breakers.b.consecutiveTimeouts.slower", 3, "did you mean \"slowerThan\"?"),
                new Case("misspelt failureThreshold", yaml("tools:", "  web_search:", "    circuitBreaker:",
                        "      failureTreshold: 5"),
                        "tools.web_search.circuitBreaker.failureTreshold", 4, "did you mean \"failureThreshold\"?"),
                new Case("unknown key in an MCP server", yaml("mcpServers:", "  search:", "    url: http://127.0.0.1:9000/mcp",
                        "    retires: 2"), "mcpServers.search.retires", 4, "did you mean \"retries\"?"),
                // wrong types
                new Case("text for an integer", yaml("server:", "  port: abc"), "server.port", 2,
                        "must be an integer, but was \"abc\""),
                new Case("a number for a section", yaml("server: 8080"), "server", 1, "must be a map, but was 8080"),
                new Case("a number for a named entry", yaml(PROVIDER, "models:", "  a: 5"), "models.a", 3,
                        "must be a map of settings, but was 5"),
                new Case("yes for a boolean", yaml("permissions:", "  headless: yes"), "permissions.headless", 2,
                        "must be true or false, but was \"yes\""),
                new Case("a list for a breaker", yaml(PROVIDER, "models:", "  a:", "    provider: anthropic",
                        "    breaker: [default]"), "models.a.breaker", 5,
                        "must be the name of a breakers entry or a map of breaker settings, but was a list"),
                new Case("a string for fallbacks", yaml(PROVIDER, "models:", "  a: { provider: anthropic }",
                        "subagents:", "  fallbacks: a"), "subagents.fallbacks", 5, "must be a list of model names"),
                // impossible numbers
                new Case("port out of range", yaml("server:", "  port: 70000"), "server.port", 2,
                        "must be between 0 and 65535, but was 70000"),
                new Case("negative count", yaml("breakers:", "  b:", "    consecutive5xx: -1"),
                        "breakers.b.consecutive5xx", 3, "must be >= 1, but was -1"),
                new Case("a token limit written as tokenOveruse's count", yaml("breakers:", "  b:", "    tokenOveruse: 50000"),
                        "breakers.b.tokenOveruse", 3, "write {maxTokensPerCall: 50000} for a limit of that many tokens per call"),
                new Case("zero halfOpenRequests", yaml("breakers:", "  b:", "    halfOpenRequests: 0"),
                        "breakers.b.halfOpenRequests", 3, "must be >= 1, but was 0"),
                new Case("zero failureThreshold", yaml("tools:", "  web_search:",
                        "    circuitBreaker: { failureThreshold: 0 }"),
                        "tools.web_search.circuitBreaker.failureThreshold", 3, "must be >= 1, but was 0"),
                new Case("zero maxAttempts", yaml("retry:", "  maxAttempts: 0"), "retry.maxAttempts", 2,
                        "must be >= 1, but was 0"),
                new Case("shrinking multiplier", yaml("retry:", "  multiplier: 0.5"), "retry.multiplier", 2,
                        "must be >= 1, but was 0.5"),
                new Case("negative tool retries", yaml("tools:", "  browser:", "    retries: -1"),
                        "tools.browser.retries", 3, "must be >= 0, but was -1"),
                new Case("minCalls larger than the window", yaml("breakers:", "  b:",
                        "    failureRate: { window: 5, minCalls: 10 }"), "breakers.b.failureRate.minCalls", 3,
                        "minCalls (10) must not exceed the window of 5 calls"),
                new Case("a breaker with every trigger off", yaml("breakers:", "  quiet:", "    consecutiveTimeouts: off",
                        "    consecutiveErrors: off", "    consecutive5xx: off", "    consecutive429: off",
                        "    tokenOveruse: off", "    failureRate: off"), "breakers.quiet", 2, "every trigger is off"),
                new Case("both names of one trigger", yaml("breakers:", "  b:", "    failureThreshold: 3",
                        "    consecutiveErrors: 4"), "breakers.b.consecutiveErrors", 4, "give only one of them"),
                // durations, percentages, sizes, choices, URLs
                new Case("bad duration", yaml("breakers:", "  b:", "    resetTimeout: 5 minutes"),
                        "breakers.b.resetTimeout", 3, "must be a duration like 250ms, 30s, 5m or 1h, but was \"5 minutes\""),
                new Case("negative duration", yaml(PROVIDER, "models:", "  a:", "    provider: anthropic",
                        "    timeout: -5s"), "models.a.timeout", 5, "must be a duration like"),
                new Case("a breaker open for ever", yaml("breakers:", "  b:", "    resetTimeout: 1000000h"),
                        "breakers.b.resetTimeout", 3, "must be at most 100 years (876000h), but was \"1000000h\""),
                new Case("zero timeout", yaml("tools:", "  browser:", "    timeout: 0"), "tools.browser.timeout", 3,
                        "must be > 0, but was 0"),
                new Case("a rate trigger as a bare number", yaml("breakers:", "  b:", "    failureRate: 50"),
                        "breakers.b.failureRate", 3, "must be a map like {window: 20, minCalls: 10, threshold: 50%}"),
                new Case("bad window", yaml("breakers:", "  b:", "    failureRate: { window: twenty }"),
                        "breakers.b.failureRate.window", 3, "must be a number of calls like 20 or a duration like 60s"),
                new Case("percentage over 100", yaml("context:", "  rejectAt: 150%"),
                        "context.rejectAt", 2, "must be more than 0% and at most 100%"),
                new Case("rate threshold of 100%", yaml("breakers:", "  b:", "    failureRate: { threshold: 100% }"),
                        "breakers.b.failureRate.threshold", 3, "must be at least 0% and less than 100%"),
                new Case("bare 50 as a percentage", yaml("retry:", "  budget: { percent: 50 }"), "retry.budget.percent", 2,
                        "(a bare number is a fraction: 0.5 is 50%), but was 50"),
                new Case("not a percentage", yaml("context:", "  warnAt: high"), "context.warnAt", 2,
                        "must be a percentage like 50% or a fraction like 0.5, but was \"high\""),
                new Case("bad size", yaml("server:", "  maxBodySize: 10XB"), "server.maxBodySize", 2,
                        "must be a size like 512KB, 10MB or 1GB, but was \"10XB\""),
                new Case("zero header timeout", yaml("server:", "  headerTimeout: 0s"), "server.headerTimeout", 2,
                        "must be > 0, but was \"0s\""),
                new Case("no connections", yaml("server:", "  maxConnections: 0"), "server.maxConnections", 2,
                        "must be >= 1, but was 0"),
                new Case("an SSE event bound over 1GB", yaml("server:", "  maxSseEvent: 2GB"), "server.maxSseEvent", 2,
                        "must be at most 1GB"),
                new Case("no event loops", yaml("server:", "  eventLoops: 0"), "server.eventLoops", 2,
                        "must be between 1 and 1024, but was 0"),
                new Case("allowed hosts not a list", yaml("server:", "  allowedHosts: example.com"), "server.allowedHosts", 2,
                        "must be a list of strings"),
                new Case("an origin with a path", yaml("server:", "  cors: { allowedOrigins: [\"https://a.example/x\"] }"),
                        "server.cors.allowedOrigins[0]", 2, "must be an origin like https://app.example.com"),
                new Case("misspelt choice", yaml("retry:", "  jitter: ful"), "retry.jitter", 2,
                        "must be one of none, full, equal, decorrelated, but was \"ful\"; did you mean \"full\"?"),
                new Case("misspelt transport", yaml("server:", "  transport: iouring"), "server.transport", 2,
                        "must be one of auto, io_uring, epoll, nio, but was \"iouring\"; did you mean \"io_uring\"?"),
                new Case("unknown store", yaml("state:", "  store: postgres"), "state.store", 2,
                        "must be one of memory, redis"),
                new Case("redis URI with the wrong scheme", yaml("state:", "  redis: { uri: \"http://127.0.0.1:6379\" }"),
                        "state.redis.uri", 2, "must be an absolute redis or rediss URL"),
                new Case("provider base URL that is not a URL", yaml("providers:", "  anthropic:",
                        "    baseUrl: api.anthropic.com"), "providers.anthropic.baseUrl", 3, "URL, but was \"api.anthropic.com\""),
                new Case("maxDelay below initialDelay", yaml("retry:", "  initialDelay: 5s", "  maxDelay: 1s"),
                        "retry.maxDelay", 3, "must not be less than initialDelay (5s), but was 1s"),
                // required keys and cross-references
                new Case("provider without a type", yaml("providers:", "  local:", "    baseUrl: http://127.0.0.1:8080"),
                        "providers.local.type", 2, "is required: one of anthropic, openai"),
                new Case("model without a provider", yaml(PROVIDER, "models:", "  a:", "    timeout: 30s"),
                        "models.a.provider", 3, "is required"),
                new Case("unknown provider", yaml(PROVIDER, "models:", "  a:", "    provider: antropic"),
                        "models.a.provider", 4, "unknown provider \"antropic\"; did you mean \"anthropic\"?"),
                new Case("unknown fallback model", yaml(PROVIDER, "models:", "  a:", "    provider: anthropic",
                        "    fallbacks: [llama-3.1-70b]"), "models.a.fallbacks[0]", 5,
                        "unknown model \"llama-3.1-70b\"; configured: a"),
                new Case("a model falling back to itself", yaml(PROVIDER, "models:", "  a:", "    provider: anthropic",
                        "    fallbacks: [a]"), "models.a.fallbacks[0]", 5, "a model cannot fall back to itself"),
                new Case("a fallback after null", yaml(PROVIDER, "models:", "  a: { provider: anthropic }",
                        "  b: { provider: anthropic }", "subagents:", "  fallbacks:", "    - a", "    - null", "    - b"),
                        "subagents.fallbacks[2]", 9, "nothing after null is tried"),
                new Case("unknown subagent fallback", yaml(PROVIDER, "models:", "  claude-haiku-4: { provider: anthropic }",
                        "subagents:", "  fallbacks: [claude_haiku_4]"), "subagents.fallbacks[0]", 5,
                        "did you mean \"claude-haiku-4\"?"),
                new Case("unknown breaker name", yaml(PROVIDER, "models:", "  a:", "    provider: anthropic",
                        "    breaker: strict"), "models.a.breaker", 5, "unknown breaker \"strict\"; configured: default"),
                new Case("unknown compactModel", yaml(PROVIDER, "models:", "  a: { provider: anthropic }", "context:",
                        "  compactModel: haiku"), "context.compactModel", 5, "unknown model \"haiku\""),
                new Case("decreasing ladder", yaml("context:", "  autoCompactAt: 80%", "  snipAt: 75%"), "context.snipAt", 3,
                        "must be more than autoCompactAt (80%), but was 75%"),
                new Case("equal ladder steps", yaml("context:", "  snipAt: 95%"), "context.rejectAt", 1,
                        "must be more than snipAt (95%), but was 95%"),
                new Case("fewer total denials than a streak", yaml("permissions:", "  maxConsecutiveDenials: 5",
                        "  maxTotalDenials: 4"), "permissions.maxTotalDenials", 3,
                        "maxTotalDenials (4) must be >= maxConsecutiveDenials (5)"),
                new Case("output reserve filling a context window", yaml(PROVIDER, "models:",
                        "  small: { provider: anthropic, contextWindow: 8000 }", "context:", "  reserveOutputTokens: 8000"),
                        "context.reserveOutputTokens", 5,
                        "must be less than the smallest contextWindow (8000, model small), but was 8000"),
                new Case("unknown translate mode", yaml(PROVIDER, "models:", "  a: { provider: anthropic, translate: loose }"),
                        "models.a.translate", 3, "one of strict, lenient"),
                new Case("MCP server without a URL", yaml("mcpServers:", "  search:", "    timeout: 30s"),
                        "mcpServers.search.url", 2, "is required"),
                new Case("MCP server with an ftp URL", yaml("mcpServers:", "  search: { url: \"ftp://127.0.0.1/mcp\" }"),
                        "mcpServers.search.url", 2, "must be an absolute"),
                new Case("MCP server name with a slash", yaml("mcpServers:", "  team/search: { url: http://127.0.0.1:1/mcp }"),
                        "mcpServers.team/search", 2, "must not contain \"/\""),
                new Case("tool of an unknown MCP server", yaml("tools:", "  serch/web_search: { timeout: 10s }"),
                        "tools.serch/web_search", 2, "unknown MCP server \"serch\"; no MCP servers are configured"),
                // environment
                new Case("missing environment variable", yaml("providers:", "  anthropic:",
                        "    apiKey: ${ANTHROPIC_API_KEY}"), "providers.anthropic.apiKey", 3,
                        "environment variable ANTHROPIC_API_KEY is not set"),
                new Case("malformed variable reference", yaml("server:", "  adminToken: ${1TOKEN}"), "server.adminToken", 2,
                        "does not name an environment variable"),
                new Case("interpolated value of the wrong type", yaml("server:", "  port: ${PORT}x"), "server.port", 2,
                        "must be an integer, but was the value of \"${PORT}x\" (from the environment, not shown)"),
                // the file itself
                new Case("YAML syntax error", yaml("server:", "  port: 8787", "   bad: [1, 2"), "", 3, "YAML syntax error"),
                new Case("empty file", "", "", 1, "the file is empty"),
                new Case("only comments", yaml("# nothing here yet"), "", 1, "the file is empty"),
                new Case("a list at the root", yaml("- server"), "", 1, "expected a map of sections"),
                new Case("duplicate key", yaml("server:", "  port: 1", "  port: 2"), "server.port", 3,
                        "duplicate key; it is first given at line 2"),
                new Case("two documents", yaml("server: {}", "---", "tools: {}"), "", 3, "only one YAML document"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsOneErrorWithKeyPathLineAndProblem(Case example) {
        // Given a file with one mistake / When it is loaded
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(example.yaml(), "agentfuse.yaml", ENVIRONMENT));

        // Then exactly that mistake is reported, where it is
        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo(example.path());
            assertThat(error.line()).isEqualTo(example.line());
            assertThat(error.column()).isPositive();
            assertThat(error.message()).contains(example.message());
        });
    }

    private static String yaml(String... lines) {
        return String.join("\n", lines) + "\n";
    }
}
