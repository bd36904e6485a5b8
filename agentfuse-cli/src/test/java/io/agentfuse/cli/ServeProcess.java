package io.agentfuse.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code agentfuse serve} in a JVM of its own, as a supervisor runs it: signals go to that process
 * alone, and its exit code is its own. Its standard output and error are read all the time (kept,
 * line by line, for {@link #awaitLine} and failure messages).
 */
final class ServeProcess implements AutoCloseable {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private final Process process;
    private final BlockingQueue<String> unread = new LinkedBlockingQueue<>();
    private final List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());
    private final String baseUrl;

    private ServeProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                output.lines().forEach(line -> {
                    all.add(line);
                    unread.add(line);
                });
            } catch (IOException closed) {
                // the process ended
            }
        }, "serve-output");
        reader.setDaemon(true);
        reader.start();
        try {
            // A JSON log line escapes the slashes.
            this.baseUrl = awaitLine(Pattern.compile("listening on (http:[^\\s\"]+)")).group(1).replace("\\/", "/");
        } catch (AssertionError | RuntimeException notStarted) {
            process.destroyForcibly(); // nobody else holds it to stop it
            throw notStarted;
        }
    }

    /** Starts {@code serve --config config --port 0 options...} with {@code environment} added; returns once it listens. */
    static ServeProcess start(Path config, Map<String, String> environment, String... options) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", classpath, AgentfuseCommand.class.getName(),
                "serve", "--config", config.toString(), "--port", "0"));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new ServeProcess(builder.start());
    }

    /** {@code http://127.0.0.1:<port>}. */
    String baseUrl() {
        return baseUrl;
    }

    /** The port the gateway listens on. */
    int port() {
        return Integer.parseInt(baseUrl.substring(baseUrl.lastIndexOf(':') + 1));
    }

    /** Sends {@code signal} ({@code TERM}, {@code HUP}, ...) to the process, as {@code kill -<signal>} does. */
    void signal(String signal) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " exited with " + exit);
        }
    }

    /** The exit code, waiting up to {@link #BOUND}; fails when the process is still running then. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("serve did not exit within " + BOUND + "; output:\n" + output());
        }
        return process.exitValue();
    }

    /** Every line written so far. */
    String output() {
        synchronized (all) {
            return String.join("\n", all);
        }
    }

    /** Every line written so far, one per element. */
    List<String> lines() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** The first line from now on that matches {@code pattern}; fails after {@link #BOUND}. */
    Matcher awaitLine(Pattern pattern) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                String line = unread.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (line == null) {
                    break;
                }
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    return matcher;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new AssertionError("no line matching " + pattern + " within " + BOUND + "; output:\n" + output());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }
    }
}
