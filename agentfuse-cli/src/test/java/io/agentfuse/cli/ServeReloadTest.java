package io.agentfuse.cli;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code agentfuse serve} in a process of its own, reloaded the ways an operator does it: SIGHUP
 * ({@code kill -HUP}) and {@code POST /admin/reload}. A second process, because the signal goes to
 * a whole JVM.
 */
class ServeReloadTest {

    private static final String CONFIG = """
            server: { port: 0, adminToken: "reload-token" }
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-test" }
            models:
              gpt-4o-mini: { provider: openai }
            """;
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private Process child;

    @AfterEach
    void stop() throws InterruptedException {
        if (child != null) {
            child.destroy();
            if (!child.waitFor(20, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private String start(Path config, String... options) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", classpath, AgentfuseCommand.class.getName(),
                "serve", "--config", config.toString(), "--port", "0"));
        command.addAll(List.of(options));
        child = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                output.lines().forEach(lines::add);
            } catch (IOException closed) {
                // the process ended
            }
        }, "serve-output");
        reader.setDaemon(true);
        reader.start();
        Matcher listening = awaitLine(Pattern.compile("listening on (http:[^\\s\"]+)"));
        return listening.group(1).replace("\\/", "/"); // a JSON log line escapes the slashes
    }

    /** The first output line from now on that matches {@code pattern}; fails after {@link #BOUND}. */
    private Matcher awaitLine(Pattern pattern) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        StringBuilder seen = new StringBuilder();
        try {
            while (System.nanoTime() < deadline) {
                String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (line == null) {
                    break;
                }
                seen.append(line).append('\n');
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    return matcher;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new AssertionError("no line matching " + pattern + " within " + BOUND + "; output:\n" + seen);
    }

    private String models(String baseUrl) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/models")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /**
     * Whether this process was started with SIGHUP ignored ({@code nohup}): its children inherit
     * that, and a JVM does not take over an ignored SIGHUP (bit 0 of /proc's SigIgn mask is signal 1).
     */
    private static boolean sighupIgnoredHere() throws IOException {
        String mask = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("SigIgn:"))
                .findFirst().orElseThrow(() -> new AssertionError("no SigIgn in /proc/self/status")).substring(7).trim();
        return (Long.parseUnsignedLong(mask, 16) & 1L) != 0;
    }

    private void hangUp() throws Exception {
        assertThat(new ProcessBuilder("kill", "-HUP", Long.toString(child.pid())).inheritIO().start().waitFor()).isZero();
    }

    @Test
    void sighupReloadsTheFileAndABrokenOneIsLoggedAndChangesNothing() throws Exception {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), CONFIG);
        String baseUrl = start(config);
        assertThat(models(baseUrl)).contains("gpt-4o-mini").doesNotContain("gpt-4.1");
        if (sighupIgnoredHere()) {
            // Run under nohup: the gateway cannot reload on SIGHUP and must say so, and keep running when sent one.
            awaitLine(Pattern.compile("SIGHUP is ignored by this process .* use POST /admin/reload or change the file"));
            hangUp();
            assertThat(models(baseUrl)).as("SIGHUP neither reloads nor stops it").doesNotContain("gpt-4.1");
            assertThat(child.isAlive()).isTrue();
            return;
        }

        Files.writeString(config, CONFIG + "  gpt-4.1: { provider: openai }\n");
        hangUp();

        awaitLine(Pattern.compile("configuration reloaded from .*agentfuse.yaml \\(SIGHUP\\)"));
        assertThat(models(baseUrl)).contains("gpt-4.1");
        assertThat(child.isAlive()).as("SIGHUP does not stop the gateway").isTrue();

        Files.writeString(config, CONFIG.replace("port: 0", "port: -1"));
        hangUp();

        Matcher refused = awaitLine(Pattern.compile("WARN .*configuration not reloaded \\((SIGHUP|file changed)\\).*agentfuse.yaml:1:\\d+: server.port"));
        assertThat(refused.group()).contains("the one in force stays");
        assertThat(models(baseUrl)).contains("gpt-4.1");
    }

    @Test
    void withLogFormatJsonEveryEventIsOneJsonObjectPerLine() throws Exception {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), CONFIG);
        String baseUrl = start(config, "--log-format", "json");

        HttpResponse<String> forced = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/breakers/model:gpt-4o-mini/open?reason=drill"))
                .header("authorization", "Bearer reload-token").POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(forced.statusCode()).isEqualTo(200);

        Matcher line = awaitLine(Pattern.compile("^\\{\"timestamp\":\\d+,\"level\":\"WARN\".*\"formattedMessage\":\"breaker model:gpt-4o-mini CLOSED -> FORCED_OPEN: operator: drill\".*}$"));
        assertThat(new JsonObject(line.group()).getJsonArray("kvpList").encode())
                .contains("{\"breaker\":\"model:gpt-4o-mini\"}", "{\"to\":\"FORCED_OPEN\"}");
    }
}
