package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.transport} as {@code serve} applies it, in a child JVM where Netty's native
 * transports are switched off ({@code -Dio.netty.transport.noNative=true}), as on a machine where
 * neither loads: {@code auto} starts on NIO and logs why; a transport named outright stops the start.
 */
class ServeTransportTest {

    @TempDir
    Path directory;

    private Process child;

    @AfterEach
    void stop() throws InterruptedException {
        if (child != null) {
            child.destroy();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process serve(String transport) throws IOException {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), "server:\n  port: 0\n  transport: " + transport + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        child = new ProcessBuilder(java, "-Xmx128m", "-Dio.netty.transport.noNative=true", "-cp", classpath,
                AgentfuseCommand.class.getName(), "serve", "--config", config.toString())
                .redirectErrorStream(true).start();
        child.getOutputStream().close();
        return child;
    }

    /**
     * The child's output until every one of {@code markers} has been seen in some line, or all of it if
     * it ends first (the log lines come from a thread of their own, so their order against the
     * command's lines is not fixed). Fails, showing what it read, after a minute.
     */
    private static List<String> linesUntil(Process process, String... markers) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
            List<String> unseen = new ArrayList<>(List.of(markers));
            try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = output.readLine(); line != null; line = output.readLine()) {
                    lines.add(line);
                    unseen.removeIf(line::contains);
                    if (unseen.isEmpty()) {
                        break;
                    }
                }
            } catch (IOException e) {
                lines.add("(output ended: " + e + ")");
            }
        });
        try {
            read.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("not every one of " + List.of(markers) + " within a minute; read:\n"
                    + String.join("\n", lines), e);
        }
        return lines;
    }

    @Test
    void autoStartsOnNioWhereNoNativeTransportLoadsAndLogsWhy() throws Exception {
        List<String> lines = linesUntil(serve("auto"), "listening on", "network transport:");

        assertThat(lines).as(String.join("\n", lines)).anySatisfy(line -> assertThat(line)
                .contains("network transport: nio (io_uring unavailable: ").contains("; epoll unavailable: "));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("agentfuse gateway listening on http://127.0.0.1:"));
    }

    @Test
    void aNamedTransportThatCannotLoadStopsTheStartAndSaysWhatToDo() throws Exception {
        Process process = serve("io_uring");
        List<String> lines = linesUntil(process, "no line holds this, so all of the output is read");

        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(picocli.CommandLine.ExitCode.SOFTWARE);
        assertThat(lines).as(String.join("\n", lines)).anySatisfy(line -> assertThat(line)
                .startsWith("agentfuse: the gateway could not start: server.transport is io_uring, which cannot load here (")
                .endsWith("); use auto to run on the best transport that loads"));
        assertThat(lines).noneMatch(line -> line.contains("listening on"));
    }
}
