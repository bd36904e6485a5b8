package io.agentfuse.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

/**
 * A request whose path or query holds a malformed percent-escape (a {@code %} not followed by two
 * hexadecimal digits) is refused before any route: 400 {@code invalid_request} as JSON in the
 * caller's dialect, a JSON-RPC error on an MCP path, and no log line at all. Regression: the router
 * answered a bad path with a plain-text "Bad Request" and logged an ERROR with a stack trace per
 * request; a bad query made the Gemini endpoints, the Gemini model list and the admin operations
 * answer 500, and the ERROR logged quoted the whole URI, a client key in {@code ?key=} included.
 */
class MalformedEscapesTest {

    private static final String KEY = "team-a-key-5c1d7e";
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String CONFIG = GatewayHarness.CONFIG + """
            clients:
              team-a: { key: "%s" }
            mcpServers:
              files: { url: "http://127.0.0.1:9/mcp" }
            """.formatted(KEY);
    private static final String GEMINI_BODY = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}]}";

    private static GatewayHarness harness;
    private static final ListAppender<ILoggingEvent> LINES = new ListAppender<>();
    private static final Logger ROOT = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private static Level rootLevel;

    @BeforeAll
    static void start() {
        rootLevel = ROOT.getLevel();
        ROOT.setLevel(Level.DEBUG);
        LINES.start();
        ROOT.addAppender(LINES);
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterAll
    static void stop() {
        try {
            harness.close();
        } finally {
            ROOT.detachAppender(LINES);
            ROOT.setLevel(rootLevel);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "POST /v1/chat/%ZZ",
            "POST /v1beta/models/gpt-4o-mini:generateContent?key=" + KEY + "%",
            "POST /v1beta/models/gpt-4o-mini:streamGenerateContent?alt=%ZZ&key=" + KEY,
            "GET /v1beta/models?key=" + KEY + "%4",
            "POST /admin/breakers/model:gpt-4o-mini/open?reason=%G1"})
    void aMalformedEscapeIsRefused400AsJsonAndLogsNothing(String methodAndTarget) {
        int before = LINES.list.size();

        RawSocket.Response answer = send(methodAndTarget);

        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(new JsonObject(answer.body()).encode()).contains("invalid_request").doesNotContain(KEY);
        assertThat(logLinesFrom(before)).as("log lines").noneMatch(line -> line.contains(KEY))
                .noneMatch(line -> line.contains("Exception"));
    }

    @Test
    void onAnMcpPathItIsAJsonRpcError() {
        RawSocket.Response answer = send("POST /mcp/%ZZ");

        assertThat(answer.status()).isEqualTo(400);
        JsonObject body = new JsonObject(answer.body());
        assertThat(body.getString("jsonrpc")).isEqualTo("2.0");
        assertThat(body.getJsonObject("error").encode()).contains("invalid_request");
    }

    private static RawSocket.Response send(String methodAndTarget) {
        String body = methodAndTarget.startsWith("POST") ? GEMINI_BODY : "";
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            String credential = methodAndTarget.contains(" /admin/")
                    ? "Authorization: Bearer " + GatewayHarness.ADMIN_TOKEN : "x-goog-api-key: " + KEY;
            socket.send(methodAndTarget + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credential + "\r\n"
                    + (body.isEmpty() ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n")
                    + "Connection: close\r\n\r\n" + body);
            return socket.read(BOUND);
        }
    }

    /** Each captured line from index {@code from} on: message and stack trace together. */
    private static List<String> logLinesFrom(int from) {
        synchronized (LINES.list) {
            return LINES.list.subList(from, LINES.list.size()).stream()
                    .map(event -> event.getFormattedMessage()
                            + (event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy())))
                    .toList();
        }
    }
}
