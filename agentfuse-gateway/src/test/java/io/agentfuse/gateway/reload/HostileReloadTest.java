package io.agentfuse.gateway.reload;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /admin/reload} against files written to hurt: a merge-key bomb, a file far too long,
 * YAML tags, a secret under the wrong key; each is refused at once as 400 {@code invalid_config}
 * naming key and line, and the fixing reload goes through. A reload stuck reading its file (a
 * FIFO nobody writes) holds up no later reload.
 */
class HostileReloadTest {

    private static final String SECRET = "sk-live-Sup3rSecretValue42";
    private static final String BASE = """
            server:
              port: 0
              adminToken: "test-admin-token"
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai" }
            retry: { maxAttempts: 1 }
            models:
              gpt-4o-mini: { provider: openai }
            """;
    private static final String WITH_MISTRAL = BASE + "  mistral-large: { provider: openai }\n";

    @TempDir
    Path dir;
    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aMergeKeyBombIsRefusedAndTheFixingReloadGoesThrough() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);
        StringBuilder bomb = new StringBuilder(BASE).append("x0: &x0 [{k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}, {k: 1}]\n");
        for (int level = 1; level <= 9; level++) {
            String previous = "*x" + (level - 1);
            bomb.append("x").append(level).append(": &x").append(level).append(" [")
                    .append(IntStream.range(0, 9).mapToObj(i -> previous).collect(Collectors.joining(", "))).append("]\n");
        }
        bomb.append("breakers:\n  b: {<<: *x9}\n");
        write(bomb.toString());

        Reply refused = reload();
        write(WITH_MISTRAL);
        Reply fixed = reload();

        assertThat(refused.status()).isEqualTo(400);
        assertThat(error(refused).getString("type")).isEqualTo("invalid_config");
        assertThat(error(refused).getString("message")).contains("YAML bomb");
        assertThat(fixed.status()).as(fixed.body()).isEqualTo(200);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(200);
    }

    @Test
    void aFileOverTheSizeLimitIsRefusedAs400NotAnInternalError() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);
        write(WITH_MISTRAL + "# " + "x".repeat(ConfigLoader.MAX_FILE_BYTES) + "\n");

        Reply refused = reload();

        assertThat(refused.status()).isEqualTo(400);
        assertThat(error(refused).getString("type")).isEqualTo("invalid_config");
        assertThat(error(refused).getString("message")).contains("a configuration file may be at most 1048576 bytes");
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status())
                .as("the configuration in force stays").isEqualTo(404);
    }

    @Test
    void yamlTagsAreRefusedWithKeyAndLine() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO);
        write(BASE.replace("retry: { maxAttempts: 1 }", "retry: { maxAttempts: !!java.lang.Integer 1 }"));

        Reply refused = reload();

        assertThat(refused.status()).isEqualTo(400);
        JsonObject first = error(refused).getJsonArray("errors").getJsonObject(0);
        assertThat(first.getString("key")).isEqualTo("retry.maxAttempts");
        assertThat(first.getInteger("line")).isEqualTo(6);
        assertThat(first.getString("message")).contains("tagged !!java.lang.Integer");
    }

    @Test
    void aSecretThatReachesAWrongKeyIsNamedByItsVariableInTheAnswerAndTheLog() throws IOException {
        harness = GatewayHarness.startFromFile(write(BASE), Duration.ZERO, Map.of("OPENAI_API_KEY", SECRET));
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(ConfigReloader.class);
        lines.start();
        logger.addAppender(lines);
        try {
            write(BASE.replace("retry: { maxAttempts: 1 }", "retry: { maxAttempts: \"${OPENAI_API_KEY}\" }"));

            Reply refused = reload();

            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body()).doesNotContain(SECRET).contains("retry.maxAttempts").contains("${OPENAI_API_KEY}");
            assertThat(error(refused).getJsonArray("errors").getJsonObject(0).getInteger("line")).isEqualTo(6);
            assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(line -> assertThat(line).contains("${OPENAI_API_KEY}"))
                    .noneMatch(line -> line.contains(SECRET));
        } finally {
            logger.detachAppender(lines);
        }
    }

    @Test
    void aReloadStuckReadingItsFileHoldsUpNoLaterReload() throws Exception {
        // Given the configuration file is a link, pointed at a FIFO that no one writes yet
        Path link = dir.resolve("agentfuse.yaml");
        Files.createSymbolicLink(link, Files.writeString(dir.resolve("v1.yaml"), BASE));
        harness = GatewayHarness.startFromFile(link, Duration.ZERO);
        Path fifo = fifo(dir.resolve("slow.fifo"));
        pointAt(link, fifo);

        // When one reload starts reading it (the FIFO's writer opens only once a reader has)
        CompletableFuture<Reply> stuck = CompletableFuture.supplyAsync(this::reload);
        CompletableFuture<OutputStream> writer = CompletableFuture.supplyAsync(() -> open(fifo));
        OutputStream feed = writer.get(20, TimeUnit.SECONDS);

        // Then a later reload of a fixed file is put in force meanwhile
        pointAt(link, Files.writeString(dir.resolve("v2.yaml"), WITH_MISTRAL));
        Reply later = reload();
        assertThat(later.status()).as(later.body()).isEqualTo(200);
        assertThat(harness.client.post("/v1/chat/completions", openAiRequest("mistral-large", false)).status()).isEqualTo(200);

        // And the stuck one, once its file comes, changes nothing: the later one stays in force
        try (feed) {
            feed.write(BASE.getBytes(StandardCharsets.UTF_8));
        }
        Reply superseded = stuck.get(20, TimeUnit.SECONDS);
        assertThat(superseded.status()).isEqualTo(409);
        assertThat(error(superseded).getString("type")).isEqualTo("reload_superseded");
        assertThat(harness.gateway.runtime().config().models()).containsKey("mistral-large");
    }

    private Reply reload() {
        return harness.reload();
    }

    private static JsonObject error(Reply reply) {
        return reply.json().getJsonObject("error");
    }

    private Path write(String yaml) throws IOException {
        return GatewayHarness.writeConfig(dir, yaml);
    }

    /** Points the symbolic link {@code link} at {@code target}, at once. */
    private void pointAt(Path link, Path target) throws IOException {
        Path next = dir.resolve("next-link");
        Files.deleteIfExists(next);
        Files.createSymbolicLink(next, target);
        Files.move(next, link, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A FIFO at {@code path}, made by the system's mkfifo (part of every Linux); fails loudly without it. */
    private static Path fifo(Path path) throws IOException, InterruptedException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor(20, TimeUnit.SECONDS)).as("mkfifo ends").isTrue();
        assertThat(mkfifo.exitValue()).as("mkfifo: " + new String(mkfifo.getInputStream().readAllBytes())).isZero();
        return path;
    }

    private static OutputStream open(Path fifo) {
        try {
            return Files.newOutputStream(fifo);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the FIFO " + fifo, e);
        }
    }
}
