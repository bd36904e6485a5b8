package io.agentfuse.gateway.http;

import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body the JSON reader refuses is answered 400 {@code invalid_request} saying what is wrong and
 * where, in the gateway's words ({@link JsonFaults}): never the parser's own names, such as
 * Jackson's {@code StreamReadConstraints}, which told callers which library to aim at.
 */
class JsonErrorTextsTest {

    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 1MB }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            models:
              gpt-4o-mini: { provider: openai }
            """;
    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    static Stream<Arguments> bodies() {
        String model = "{\"model\":\"gpt-4o-mini\",\"messages\":[],\"x\":";
        return Stream.of(
                Arguments.of(model + "[".repeat(3000) + "]".repeat(3000) + "}", "the JSON nests deeper than 1000 levels"),
                Arguments.of(model + "1".repeat(2000) + "}", "a number in the JSON has more than 1000 digits"),
                Arguments.of("{\"" + "k".repeat(60_000) + "\":1}", "a field name in the JSON is longer than 50000 characters"),
                Arguments.of(model + "nan}", "unrecognized token 'nan'"),
                Arguments.of("{\"model\":\"gpt-4o-mini\" \"messages\":[]}", "was expecting comma to separate Object entries"));
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void aBodyTheReaderRefusesIsAnsweredInTheGatewaysWordsNeverTheParsers(String body, String expected) {
        RawSocket.Response response;
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            socket.send(RawSocket.post("/v1/chat/completions", "127.0.0.1", body));
            response = socket.read(Duration.ofSeconds(10));
        }

        assertThat(response.status()).isEqualTo(400);
        JsonObject error = new JsonObject(response.body()).getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).startsWith("the request body is not valid JSON: ").contains(expected)
                .doesNotContain("StreamReadConstraints").doesNotContain("`").doesNotContainIgnoringCase("jackson")
                .doesNotContain("com.fasterxml").doesNotContain("Source:");
    }
}
