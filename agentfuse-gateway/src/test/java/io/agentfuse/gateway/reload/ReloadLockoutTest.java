package io.agentfuse.gateway.reload;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: {@code POST /admin/reload} of a file cut short to {@code server: port:} was put in
 * force: it dropped the clients (every request then went through without a key), the budgets and the
 * admin token, so the admin API turned read-only and could not undo it. A reload that would remove
 * the admin token in force is refused, the configuration in force staying; clients and budgets a
 * reload removes are removed, listed in the answer and warned of.
 */
class ReloadLockoutTest {

    private static final String FULL = """
            server:
              port: 0
              adminToken: "test-admin-token"
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            retry: { maxAttempts: 1 }
            models:
              gpt-4o-mini: { provider: openai }
            clients:
              team-a: { key: "team-a-key", tenant: team-a }
            budgets:
              per-tenant: { scope: tenant, tokens: 1000000, window: 1d }
            """;
    private static final Map<String, String> TEAM_A = Map.of("authorization", "Bearer team-a-key");

    @TempDir
    Path dir;
    private GatewayHarness harness;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger reloaderLogger = (Logger) LoggerFactory.getLogger(ConfigReloader.class);

    @BeforeEach
    void capture() {
        log.start();
        reloaderLogger.addAppender(log);
    }

    @AfterEach
    void stop() {
        reloaderLogger.detachAppender(log);
        if (harness != null) {
            harness.close();
        }
    }

    private Path write(String yaml) throws IOException {
        return GatewayHarness.writeConfig(dir, yaml);
    }

    private int chat(Map<String, String> headers) {
        return harness.client.post("/v1/chat/completions", openAiRequest("gpt-4o-mini", false), headers).status();
    }

    private List<String> warnings() {
        synchronized (log) { // the appender adds under its own lock
            return log.list.stream().filter(event -> event.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Test
    void aFileCutShortThatWouldRemoveTheAdminTokenIsRefusedAndChangesNothing() throws IOException {
        harness = GatewayHarness.startFromFile(write(FULL), Duration.ZERO);

        write("server:\n  port: 0\n");
        Reply refused = harness.reload();

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        JsonObject error = refused.json().getJsonObject("error");
        assertThat(error.getString("type")).isEqualTo("invalid_config");
        assertThat(error.getString("message")).contains("server.adminToken").contains("read-only");
        assertThat(error.getJsonArray("errors").getJsonObject(0).getString("key")).isEqualTo("server.adminToken");
        assertThat(chat(Map.of())).as("the clients stay: a request without a key is refused").isEqualTo(401);
        assertThat(chat(TEAM_A)).isEqualTo(200);
        assertThat(harness.gateway.runtime().config().budgets()).containsKey("per-tenant");

        write(FULL.replace("gpt-4o-mini: { provider: openai }", "gpt-4o-mini: { provider: openai }\n  gpt-4o: { provider: openai }"));
        assertThat(harness.reload().status()).as("the token in force still reloads").isEqualTo(200);
    }

    @Test
    void theWatcherRefusesItTooAndKeepsTheToken() throws IOException {
        harness = GatewayHarness.startFromFile(write(FULL), Duration.ofMillis(20));

        write("server:\n  port: 0\n");

        Eventually.holds(harness.vertx, () -> harness.metricsText().contains("agentfuse_config_reloads_total{result=\"failed\"} 1.0"));
        assertThat(harness.gateway.runtime().config().server().adminToken()).isEqualTo("test-admin-token");
        assertThat(warnings()).anySatisfy(line -> assertThat(line).contains("file changed").contains("server.adminToken"));
    }

    @Test
    void removedClientsAndBudgetsAreRemovedListedAndWarnedOf() throws IOException {
        harness = GatewayHarness.startFromFile(write(FULL), Duration.ZERO);

        write(FULL.substring(0, FULL.indexOf("clients:")));
        Reply reply = harness.reload();

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("removed").getList()).containsExactly("clients.team-a", "budgets.per-tenant");
        assertThat(chat(Map.of())).as("no client is left: no key is needed").isEqualTo(200);
        assertThat(warnings()).singleElement().asString().contains("admin API").contains("clients.team-a")
                .contains("budgets.per-tenant").contains("need no key").doesNotContain("team-a-key");
    }

    @Test
    void aNewAdminTokenIsTakenAndNothingRemovedIsNothingWarnedOf() throws IOException {
        harness = GatewayHarness.startFromFile(write(FULL), Duration.ZERO);

        write(FULL.replace("test-admin-token", "rotated-token"));
        Reply reply = harness.reload();

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonArray("removed")).isEmpty();
        assertThat(warnings()).isEmpty();
        assertThat(harness.client.post("/admin/reload", new JsonObject(), Map.of("authorization", "Bearer rotated-token"))
                .status()).isEqualTo(200);
    }
}
