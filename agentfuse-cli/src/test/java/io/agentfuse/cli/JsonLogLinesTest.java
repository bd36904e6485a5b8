package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --log-format json} in a process of its own, from start to exit: every line it writes,
 * on standard output and standard error, is one JSON object, the line that says where it listens
 * and the lines of its drain included.
 */
class JsonLogLinesTest {

    @TempDir
    Path directory;

    private ServeProcess gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void everyLineFromStartToExitIsAJsonObject() throws Exception {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), """
                server: { port: 0, adminToken: "json-token", drainDelay: 0s }
                providers:
                  openai: { type: openai, baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-test" }
                models:
                  gpt-4o-mini: { provider: openai }
                """);
        gateway = ServeProcess.start(config, Map.of(), "--log-format", "json");

        // a request that fails upstream (a WARN with its request id), a breaker forced open, a reload, a stop
        RawExchange.send(gateway.port(), "POST", "/v1/chat/completions",
                "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").ended().get(60, TimeUnit.SECONDS);
        gateway.signal("HUP");
        gateway.signal("TERM");

        assertThat(gateway.awaitExit()).as(gateway.output()).isZero();
        assertThat(gateway.lines()).isNotEmpty().allSatisfy(line -> assertThat(parses(line)).as("a JSON object: %s", line).isTrue());
        assertThat(gateway.lines()).anySatisfy(line -> assertThat(new JsonObject(line).getString("formattedMessage"))
                .isEqualTo("agentfuse gateway listening on " + gateway.baseUrl()));
        assertThat(gateway.lines()).anySatisfy(line -> assertThat(new JsonObject(line).getString("formattedMessage"))
                .startsWith("stopping: /readyz answers 503"));
        assertThat(Pattern.compile("\"level\":\"WARN\"").matcher(gateway.output()).find()).isTrue();
    }

    @Test
    void aConfigurationWithErrorsIsReportedInJsonLinesToo() throws Exception {
        Path config = Files.writeString(directory.resolve("broken.yaml"), "server:\n  port: 70000\n");
        String launcher = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process serve = new ProcessBuilder(launcher, "-cp", classpath, AgentfuseCommand.class.getName(), "serve",
                "--config", config.toString(), "--log-format", "json").redirectErrorStream(true).start();

        String output = new String(serve.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);

        assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(serve.exitValue()).as(output).isEqualTo(ValidateCommand.INVALID);
        assertThat(output.lines().toList()).isNotEmpty().allSatisfy(line -> assertThat(parses(line)).as("a JSON object: %s", line).isTrue());
        assertThat(output).contains("server.port").contains("nothing started");
    }

    private static boolean parses(String line) {
        try {
            new JsonObject(line);
            return true;
        } catch (RuntimeException notJson) {
            return false;
        }
    }
}
