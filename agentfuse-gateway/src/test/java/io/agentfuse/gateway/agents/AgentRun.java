package io.agentfuse.gateway.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of a real agent or SDK script as a child process: a clean environment (only
 * {@code PATH} and what the test gives), standard input closed, output captured, and a generous
 * time limit that only guards against a hang (a run that needs it fails the test; none is
 * expected to come near it). Reports how long it took, for the tests to print, never to assert.
 *
 * @param exitCode the process's exit code
 * @param output   standard output and error, interleaved
 * @param seconds  how long it ran
 */
record AgentRun(int exitCode, String output, double seconds) {

    /** The hang guard: far above any run's duration. */
    static final long HANG_GUARD_SECONDS = 120;

    static AgentRun of(List<String> command, Map<String, String> environment, Path workDirectory) {
        try {
            Files.createDirectories(workDirectory);
            Path out = Files.createTempFile(workDirectory, "run", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                            Path.of("/dev/null").toFile()));
            builder.environment().clear();
            builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            builder.environment().putAll(environment);
            long start = System.nanoTime();
            Process process = builder.start();
            if (!process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError(command.get(0) + " did not end by itself within " + HANG_GUARD_SECONDS
                        + " s; its output: " + Files.readString(out, StandardCharsets.UTF_8));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new AgentRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), seconds);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The last line of output that is not blank. */
    String lastLine() {
        return output.lines().filter(line -> !line.isBlank()).reduce((a, b) -> b).orElse("");
    }

    /** The last line a call script printed about its result ({@code ok ...} or {@code error ...}), not a warning. */
    String resultLine() {
        return output.lines().filter(line -> line.startsWith("ok ") || line.startsWith("error "))
                .reduce((a, b) -> b).orElse(lastLine());
    }
}
