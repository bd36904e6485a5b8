package io.agentfuse.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The admin token and the providers' keys, sent by a careless or hostile caller in every header
 * position that can make a request fail — a prohibited character, an oversized head, a duplicate,
 * a folded line, a broken framing header, a bad name — come back in no answer and in no log line
 * (every logger at DEBUG, captured): an error names what was wrong, never the value. Some of these
 * positions are served (a folded line, an unsafe request id) or cut (a broken chunk): what the
 * gateway sends back is checked all the same.
 */
class SecretsInHeadersTest {

    private static final String ADMIN_TOKEN = "adm-tok-7f3c9e1b5d";
    private static final String ANTHROPIC_KEY = "sk-ant-secret-4e8a0c2d";
    private static final String OPENAI_KEY = "sk-oai-secret-9b1f6e3a";
    private static final List<String> SECRETS = List.of(ADMIN_TOKEN, ANTHROPIC_KEY, OPENAI_KEY);
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String CONFIG = """
            server:
              port: 0
              adminToken: "%s"
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "%s" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "%s" }
            models:
              claude-haiku-4: { provider: anthropic }
              gpt-4o-mini: { provider: openai }
            """.formatted(ADMIN_TOKEN, ANTHROPIC_KEY, OPENAI_KEY);
    private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

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

    static Stream<Arguments> failingHeaders() {
        return SECRETS.stream().flatMap(secret -> Stream.of(
                Arguments.of("a prohibited character after it", post("Authorization: Bearer " + secret + "\u0001")),
                Arguments.of("a DEL in an API key", post("x-api-key: " + secret + "\u007f")),
                Arguments.of("a bare CR inside it", post("x-api-key: " + secret + "\rmore")),
                Arguments.of("an oversized value", post("Authorization: Bearer " + secret + "x".repeat(9 * 1024))),
                Arguments.of("an oversized head of many headers", post(("x-api-key: " + secret + "\r\n").repeat(400)
                        + "x-end: 1")),
                Arguments.of("two Host headers", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: " + secret
                        + "\r\nConnection: close\r\n\r\n"),
                Arguments.of("a Host that is not allowed", "GET /healthz HTTP/1.1\r\nHost: " + secret
                        + "\r\nConnection: close\r\n\r\n"),
                Arguments.of("an Origin that is not allowed", post("Origin: https://" + secret)),
                Arguments.of("a Content-Type that is not JSON", "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: " + secret + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
                Arguments.of("a Content-Length that is not a number", "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + secret + "\r\nConnection: close\r\n\r\n{}"),
                Arguments.of("two Content-Lengths", "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: " + secret
                        + "\r\nConnection: close\r\n\r\n{}"),
                Arguments.of("an unknown Transfer-Encoding", "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: " + secret + "\r\nConnection: close\r\n\r\n{}"),
                Arguments.of("a chunk size", "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                        + secret + "\r\n{}\r\n0\r\n\r\n"),
                Arguments.of("a folded line", post("Authorization: Bearer\r\n " + secret)),
                Arguments.of("a folded line with a prohibited character", post("x-api-key: a\r\n " + secret + "\u0002")),
                Arguments.of("a line without a colon", post(secret)),
                Arguments.of("a header name with a space", post(secret + " x: y")),
                Arguments.of("an Expect the gateway does not know", post("Expect: " + secret)),
                Arguments.of("an unsafe request id", post("x-request-id: " + secret + "!")),
                Arguments.of("a wrong admin token", "POST /admin/breakers/model:gpt-4o-mini/open HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer " + secret + "x\r\nConnection: close\r\n\r\n"),
                Arguments.of("an admin token without Bearer", "POST /admin/breakers/model:gpt-4o-mini/open HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\nAuthorization: " + secret + "\r\nConnection: close\r\n\r\n"),
                Arguments.of("a request line with it as the version", "GET /healthz " + secret + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
                Arguments.of("a request line with a prohibited character", "GET /v1/models?key=" + secret
                        + "\u0001 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        ).map(arguments -> Arguments.of(arguments.get()[0] + " (" + secret.substring(0, 6) + ")", arguments.get()[1])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingHeaders")
    void givenASecretInAFailingHeaderWhenTheGatewayRefusesThenNeitherTheAnswerNorAnyLogLineHoldsIt(String position,
                                                                                                  String request) {
        int before = LINES.list.size();
        String answer;
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send(request);
            answer = socket.rest(BOUND);
        }
        // A healthy request after it: whatever the failure logged is in the list by the time it is answered.
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertThat(socket.rest(BOUND)).startsWith("HTTP/1.1 200");
        }

        List<String> logged = logLinesFrom(before);
        for (String secret : SECRETS) {
            assertThat(answer).as("the answer to %s", position).doesNotContainIgnoringCase(secret);
            assertThat(logged).as("log lines after %s", position)
                    .noneMatch(line -> line.toLowerCase(Locale.ROOT).contains(secret.toLowerCase(Locale.ROOT)));
        }
    }

    /** Each captured line from index {@code from} on: message, key-values and stack trace together. */
    private static List<String> logLinesFrom(int from) {
        synchronized (LINES.list) {
            return LINES.list.subList(from, LINES.list.size()).stream()
                    .map(event -> event.getFormattedMessage() + " " + event.getKeyValuePairs()
                            + (event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy())))
                    .toList();
        }
    }

    /** A chat request with {@code header} among its headers, closing the connection after the answer. */
    private static String post(String header) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + BODY.length() + "\r\nConnection: close\r\n\r\n" + BODY;
    }
}
