package io.agentfuse.gateway.budget;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a client key is read (docs/design.md §11): a {@code ?key=} only on the Gemini API's routes,
 * where Google's callers send nothing else; a refusal names the header it read, never a value.
 */
class ClientKeySourcesTest {

    private static final String KEY = "sk-team-a-0123456789";
    private static final String CLIENTS = """
            clients:
              team-a: { key: "%s", tenant: team-a }
            mcpServers:
              search: { url: "http://127.0.0.1:9/mcp" }
            """.formatted(KEY);

    private GatewayHarness gateway;
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level rootLevel;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + CLIENTS);
        rootLevel = root.getLevel();
        root.setLevel(Level.DEBUG); // whatever the gateway logs, at any level, must not hold a key
        lines.start();
        root.addAppender(lines);
    }

    @AfterEach
    void stop() {
        root.detachAppender(lines);
        root.setLevel(rootLevel);
        gateway.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/chat/completions", "/v1/messages", "/v1/responses"})
    void aKeyInTheQueryIsNoCredentialOnAnOpenAiOrAnthropicRoute(String path) {
        JsonObject body = path.equals("/v1/messages") ? anthropicRequest("claude-haiku-4", false)
                : path.equals("/v1/chat/completions") ? openAiRequest("gpt-4o-mini", false)
                : new JsonObject().put("model", "gpt-4o-mini").put("input", "Hi");

        Reply reply = gateway.client.post(path + "?key=" + KEY, body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(401);
        assertThat(reply.body()).contains("key query parameter").contains("Gemini").doesNotContain(KEY);
        assertThat(gateway.mock.requests()).isEmpty();
        assertThat(lines.list).noneMatch(line -> line.getFormattedMessage().contains(KEY));
    }

    @Test
    void aKeyInTheQueryCountsOnTheGeminiRoutesOnlyNotOnTheModelListNorTheMcpProxy() {
        Reply generate = gateway.client.send(HttpMethod.POST, "/v1beta/models/claude-haiku-4:generateContent?key=" + KEY,
                new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("parts", new JsonArray().add(new JsonObject().put("text", "Hi"))))).toBuffer(),
                Map.of("content-type", "application/json"));
        Reply googleList = gateway.client.get("/v1beta/models?key=" + KEY);
        Reply models = gateway.client.get("/v1/models?key=" + KEY);
        Reply mcp = gateway.client.post("/mcp/search?key=" + KEY, new JsonObject().put("jsonrpc", "2.0").put("id", 1)
                .put("method", "tools/list"));

        assertThat(generate.status()).as(generate.body()).isEqualTo(200);
        assertThat(googleList.status()).isEqualTo(200);
        assertThat(gateway.mock.requests()).singleElement()
                .satisfies(sent -> assertThat(sent.body()).doesNotContain(KEY));
        assertThat(models.status()).isEqualTo(401);
        assertThat(mcp.status()).isEqualTo(401);
        assertThat(models.body() + mcp.body()).doesNotContain(KEY);
    }

    @Test
    void aWrongKeyInAWrongPathIsNeverEchoed() {
        Reply unknownPath = gateway.client.get("/v1/nothing-here?key=" + KEY);
        Reply wrongGoogleKey = gateway.client.get("/v1beta/models?key=sk-not-a-key-of-ours");

        assertThat(unknownPath.body()).doesNotContain(KEY);
        assertThat(wrongGoogleKey.status()).isEqualTo(401);
        assertThat(wrongGoogleKey.body()).contains("key query parameter").doesNotContain("sk-not-a-key-of-ours");
        assertThat(lines.list).noneMatch(line -> line.getFormattedMessage().contains(KEY)
                || line.getFormattedMessage().contains("sk-not-a-key-of-ours"));
    }

    @Test
    void aRefusalNamesTheHeaderItReadAndTheOnesItDidNotNeverAValue() {
        Reply bearerFirst = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false),
                Map.of("authorization", "Bearer sk-stale-key-from-an-sdk", "x-api-key", KEY));
        Reply googleHeader = gateway.client.post("/v1/messages", anthropicRequest("claude-haiku-4", false),
                Map.of("x-goog-api-key", "sk-wrong-google-key"));

        assertThat(bearerFirst.status()).isEqualTo(401);
        assertThat(bearerFirst.json().getJsonObject("error").getString("message"))
                .contains("the client key in Authorization is not valid")
                .contains("x-api-key was sent too and not read: Authorization comes first")
                .doesNotContain("sk-stale").doesNotContain(KEY);
        assertThat(googleHeader.json().getJsonObject("error").getString("message"))
                .contains("the client key in x-goog-api-key is not valid").doesNotContain("sk-wrong");
    }
}
