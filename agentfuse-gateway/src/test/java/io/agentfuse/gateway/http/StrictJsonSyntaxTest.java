package io.agentfuse.gateway.http;

import io.agentfuse.gateway.testing.GatewayClient;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway reads JSON by RFC 8259 and nothing more ({@link StrictJson}): a body with a comment,
 * {@code NaN}, single quotes, a trailing comma or a byte order mark is answered 400
 * {@code invalid_request} in the caller's dialect, saying what and where in words a person reads,
 * and never reaches the provider. Before, a comment was accepted and forwarded as the caller's bytes,
 * and a byte order mark went to the provider or not depending on whether an unrelated field was rewritten.
 */
class StrictJsonSyntaxTest {

    private static final String OPENAI = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
    private static final String ANTHROPIC = "{\"model\":\"claude-haiku-4\",\"max_tokens\":10,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("maxBodySize: 16KB", "maxBodySize: 64KB"));
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @BeforeEach
    void forget() {
        harness.mock.reset();
    }

    static Stream<Arguments> nonStandard() {
        String longText = "a".repeat(9_000); // past StrictJson.MEMO_FROM_BYTES: the memo's path
        return Stream.of(
                Arguments.of("/v1/chat/completions", "/*c*/" + OPENAI + "}", "comment", "line 1, column 1"),
                Arguments.of("/v1/chat/completions", OPENAI + ",\"temperature\":NaN}", "'NaN'", "line 1, column"),
                Arguments.of("/v1/chat/completions", "{'model':'gpt-4o-mini'}", "single quote", "line 1, column 2"),
                Arguments.of("/v1/chat/completions", OPENAI + ",\"x\":\"" + longText + "\"}}", "'}': no object or array is open",
                        "line 1, column"),
                Arguments.of("/v1/chat/completions", OPENAI.replace("}]", "},]") + "}", "trailing comma", "line 1, column"),
                Arguments.of("/v1/chat/completions", "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\""
                        + longText + "\"}}]}", "'}'", "line 1, column"),
                Arguments.of("/v1/chat/completions", "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\""
                        + longText + "\"} /* c */]}", "comment", "line 1, column"),
                Arguments.of("/v1/messages", ANTHROPIC + ",\n// x\n\"temperature\":0.5}", "comment", "line 2, column 1"),
                Arguments.of("/v1/messages/count_tokens", ANTHROPIC + " /* c */}", "comment", "line 1, column"));
    }

    @ParameterizedTest
    @MethodSource("nonStandard")
    void givenJsonBeyondRfc8259ThenTheCallerIsToldWhatAndWhereAndNothingIsForwarded(String path, String body, String what,
                                                                                    String where) {
        GatewayClient.Reply reply = send(path, body.getBytes(StandardCharsets.UTF_8));

        assertThat(reply.status()).isEqualTo(400);
        JsonObject error = reply.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_request");
        assertThat(error.getString("message")).contains("not valid JSON").contains(what).contains(where)
                .doesNotContain("  ").doesNotContain("enable").doesNotContain("Feature").doesNotContain("REDACTED")
                .doesNotContain("root starting").doesNotContain("Source:").doesNotContain("`");
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenAByteOrderMarkBeforeTheBodyThenItIsRefusedWithOrWithoutARewrite() {
        byte[] mark = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        for (String body : new String[] {OPENAI + "}", OPENAI.replace("gpt-4o-mini", "claude-sonnet-4") + "}"}) { // forwarded, translated
            byte[] json = body.getBytes(StandardCharsets.UTF_8);
            GatewayClient.Reply reply = send("/v1/chat/completions", Buffer.buffer(mark).appendBytes(json).getBytes());

            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.json().getJsonObject("error").getString("message"))
                    .contains("a byte order mark (EF BB BF) before the JSON body; send UTF-8 without one");
        }
        assertThat(harness.mock.requests()).isEmpty();
    }

    @Test
    void givenStandardJsonThenItIsServed() {
        assertThat(send("/v1/chat/completions", (OPENAI + "}").getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
    }

    private static GatewayClient.Reply send(String path, byte[] body) {
        return harness.client.send(HttpMethod.POST, path, Buffer.buffer(body),
                Map.of("content-type", "application/json", "anthropic-version", "2023-06-01"));
    }
}
