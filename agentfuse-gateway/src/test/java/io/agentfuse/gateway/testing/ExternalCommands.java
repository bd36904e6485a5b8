package io.agentfuse.gateway.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Running the system's commands for a test's set-up (fetching a browser or a proxy with
 * {@code apt-get download}, unpacking it with {@code dpkg-deb}): their output, or a failure that
 * shows it and says how to get the tool by hand, never a skipped test.
 */
public final class ExternalCommands {

    private ExternalCommands() {
    }

    /**
     * Runs {@code command} in {@code directory} with {@code environment} added, within 10 minutes;
     * its output (standard error joined in).
     *
     * @param byHand what the failure message ends with: how to install the tool by hand
     * @throws IllegalStateException when it cannot run, fails or takes longer, with its output and {@code byHand}
     */
    public static String run(List<String> command, Map<String, String> environment, Path directory, String byHand) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 10 minutes" + byHand);
            }
            String text = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue()
                        + "): " + text.strip() + byHand);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage() + byHand, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /** Whether the tests run as root (who may run {@code apt-get update}). */
    public static boolean isRoot() {
        return run(List.of("id", "-u"), Map.of(), Path.of("."), "").trim().equals("0");
    }

    /** Removes {@code folder} and everything in it, if it exists: what an interrupted earlier fetch left. */
    public static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
