package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 400 that quotes what the caller sent quotes its start and its length, never a value of
 * kilobytes whole: an answer as large as the request it refuses would land in every log that keeps
 * answers, and a header's value may hold what its caller meant for no log.
 */
class LongCallerValuesScenarioTest {

    /** Within the server's 8 KB of headers, and within its request line. */
    private static final String LONG = "9".repeat(3000) + "x";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aLongDeadlineHeaderIsQuotedByItsStartAndItsLength() {
        String value = "3".repeat(7000) + "parsecs";

        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false),
                Map.of("x-agentfuse-deadline", value));

        assertThat(reply.status()).isEqualTo(400);
        String message = reply.json().getJsonObject("error").getString("message");
        assertThat(message).contains("x-agentfuse-deadline", "'" + "3".repeat(60) + "…' (7007 characters)")
                .hasSizeLessThan(300);
        assertThat(harness.mock.requests()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/models?limit=", "/v1/models?after_id=", "/v1beta/models?pageSize=",
            "/v1beta/models?pageToken=", "/v1beta/models/"})
    void aLongQueryValueOrModelNameIsQuotedByItsStartAndItsLength(String target) {
        // Anthropic's list pages by limit and after_id; OpenAI's, without anthropic-version, takes no query.
        Reply reply = harness.client.send(HttpMethod.GET, target + LONG, Buffer.buffer(),
                Map.of("anthropic-version", "2023-06-01"));

        assertThat(reply.status()).isIn(400, 404);
        assertThat(reply.body()).contains("(3001 characters)").hasSizeLessThan(600);
    }
}
