package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image that {@code ./mvnw -Pimage package} writes ({@code target/jib-image.tar},
 * docs/design.md §14), read as a container runtime reads it: an OCI image layout whose configuration says
 * the user (not root), the command ({@code serve --config /etc/agentfuse/agentfuse.yaml}) and the port.
 * Then its layers are unpacked into a root filesystem and the command is run in it, as the image's
 * user, with a fresh {@code /proc} and nothing of this machine's files: it serves {@code /readyz}
 * and exits with 0 on SIGTERM. Runs in the {@code image} profile ({@code ./mvnw -Pimage verify}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContainerImageIT {

    private Path directory;
    private Path layout;
    private JsonObject config;
    private List<String> layers;

    @BeforeAll
    void readTheImage(@TempDir Path directory) throws Exception {
        this.directory = directory;
        Path tarball = Path.of(System.getProperty("agentfuse.image", "target/jib-image.tar"));
        assertThat(tarball).as("the image tarball (./mvnw -Pimage package writes it)").isRegularFile();
        layout = Files.createDirectories(directory.resolve("layout"));
        run(List.of("tar", "-xf", tarball.toAbsolutePath().toString(), "-C", layout.toString()));
        JsonObject index = json(layout.resolve("index.json"));
        JsonObject manifest = blob(index.getJsonArray("manifests").getJsonObject(0).getString("digest"));
        assertThat(manifest.getString("mediaType")).isEqualTo("application/vnd.oci.image.manifest.v1+json");
        config = blob(manifest.getJsonObject("config").getString("digest"));
        layers = manifest.getJsonArray("layers").stream().map(layer -> ((JsonObject) layer).getString("digest")).toList();
    }

    @Test
    void isAnOciImageLayout() throws IOException {
        assertThat(Files.readString(layout.resolve("oci-layout"))).contains("\"imageLayoutVersion\"");
        assertThat(config.getString("os")).isEqualTo("linux");
        assertThat(config.getString("architecture")).isEqualTo("amd64");
        assertThat(layers).hasSizeGreaterThan(1);
    }

    @Test
    void runsAsANonRootUser() {
        String user = config.getJsonObject("config").getString("User");

        assertThat(user).isNotBlank().doesNotStartWith("0").doesNotStartWith("root");
        assertThat(user).isEqualTo("65532:65532");
    }

    @Test
    void servesTheMountedConfigurationOnPort8787OnEveryAddress() {
        JsonObject container = config.getJsonObject("config");

        assertThat(String.join(" ", command())).endsWith("serve --config /etc/agentfuse/agentfuse.yaml");
        assertThat(container.getJsonObject("ExposedPorts").fieldNames()).containsExactly("8787/tcp");
        assertThat(container.getJsonArray("Env").getList()).contains("AGENTFUSE_HOST=0.0.0.0");
    }

    @Test
    void theJvmIsNotToldToExitWhenARequestRunsItOutOfMemory() {
        // The gateway refuses a request the heap cannot hold (429 overloaded) and serves on (docs/design.md §7):
        // with this flag the JVM would exit before that refusal, and every stream in flight with it.
        assertThat(command()).contains("-Xmx128m").doesNotContain("-XX:+ExitOnOutOfMemoryError", "-XX:+CrashOnOutOfMemoryError");
    }

    @Test
    void itsCommandServesReadyzAsItsUserAndExitsWithZeroOnSigterm() throws Exception {
        // Given the image's file system, with a configuration where a volume would be mounted
        Path root = Files.createDirectories(directory.resolve("root"));
        for (String layer : layers) {
            run(List.of("tar", "-xzf", blobPath(layer).toString(), "-C", root.toString()));
        }
        Files.writeString(root.resolve("etc/agentfuse/agentfuse.yaml"), "server: { port: 0, drainDelay: 0s }\n");
        Files.createDirectories(root.resolve("proc"));
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--pid", "--fork",
                "--mount-proc=" + root.resolve("proc"), "chroot", "--userspec=" + config.getJsonObject("config").getString("User"),
                root.toString()));
        command.addAll(command());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        for (Object variable : config.getJsonObject("config").getJsonArray("Env")) {
            String[] pair = ((String) variable).split("=", 2);
            builder.environment().put(pair[0], pair[1]);
        }
        assertThat(System.getProperty("user.name")).as("starting the image's command as its user takes root (as a container runtime is)")
                .isEqualTo("root");

        // When it is started as a container runtime would
        Process container = builder.start();
        try {
            StringBuilder output = new StringBuilder();
            var reader = new java.io.BufferedReader(new java.io.InputStreamReader(container.getInputStream(), StandardCharsets.UTF_8));
            Matcher listening = null;
            while (listening == null) {
                String line = reader.readLine(); // the command's output is read up to that line, no further
                if (line == null) {
                    break;
                }
                output.append(line).append('\n');
                Matcher matcher = Pattern.compile("listening on http://0\\.0\\.0\\.0:(\\d+)").matcher(line);
                listening = matcher.find() ? matcher : null;
            }
            assertThat(listening).as("serve starts in the image; output:\n%s", output).isNotNull();
            int port = Integer.parseInt(listening.group(1));

            // Then it is ready, and stops cleanly on SIGTERM
            String ready = RawExchange.send(port, "GET", "/readyz", null).ended().get(30, TimeUnit.SECONDS);
            assertThat(ready).startsWith("HTTP/1.1 200").contains("\"status\":\"ready\"");
            // unshare forked the command (chroot executes it in place): the signal goes to that child.
            long gatewayPid = container.toHandle().children().findFirst().orElseThrow().pid();
            run(List.of("kill", "-TERM", Long.toString(gatewayPid)));
            assertThat(container.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(container.exitValue()).as(output + new String(container.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        } finally {
            container.destroyForcibly();
        }
    }

    /** The image's entrypoint followed by its arguments. */
    private List<String> command() {
        JsonObject container = config.getJsonObject("config");
        List<String> command = new ArrayList<>();
        for (String key : List.of("Entrypoint", "Cmd")) {
            JsonArray part = container.getJsonArray(key);
            if (part != null) {
                part.forEach(item -> command.add((String) item));
            }
        }
        return command;
    }

    private JsonObject blob(String digest) throws IOException {
        return json(blobPath(digest));
    }

    private Path blobPath(String digest) {
        return layout.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    private static JsonObject json(Path file) throws IOException {
        return new JsonObject(Files.readString(file));
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("%s: %s", command, output).isZero();
    }
}
