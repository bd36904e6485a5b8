package io.agentfuse.gateway.limits;

import io.agentfuse.gateway.testing.ProcessProbe;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ChildGateway} running in a process of its own, seen from the test: its port, its file
 * descriptors and resident memory, its live heap, and the commands it obeys. Its output is drained
 * all the time (so that it never blocks on a full pipe) and kept for failure messages.
 *
 * <p>Not thread-safe: one test thread talks to it.
 */
final class ChildGatewayProcess implements AutoCloseable {

    private static final Duration ANSWER_BOUND = Duration.ofSeconds(60);
    private static final String ENDED = "\u0000ended";

    private final Process process;
    private final OutputStream commands;
    private final StringBuffer log = new StringBuffer();
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final int port;

    private ChildGatewayProcess(Process process) {
        this.process = process;
        this.commands = process.getOutputStream();
        Thread drain = new Thread(this::drain, "child-gateway-output");
        drain.setDaemon(true);
        drain.start();
        this.port = Integer.parseInt(answer("PORT"));
    }

    /**
     * Starts a child gateway on {@code yaml}, whose {@code ${NAME}}s are taken from
     * {@code environment}, with the JVM flags {@code jvmFlags}; {@code openFiles > 0} lowers the
     * process's open-files limit ({@code ulimit -n}) to that. Returns once it is listening.
     */
    static ChildGatewayProcess start(String yaml, Map<String, String> environment, List<String> jvmFlags, int openFiles) {
        try {
            Path config = Files.createTempFile("agentfuse-child", ".yaml");
            Files.writeString(config, yaml);
            config.toFile().deleteOnExit();
            List<String> command = new ArrayList<>();
            if (openFiles > 0) {
                command.addAll(List.of("bash", "-c", "ulimit -n " + openFiles + " && exec \"$@\"", "bash"));
            }
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmFlags);
            command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                    ChildGateway.class.getName(), config.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            return new ChildGatewayProcess(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    int fileDescriptors() {
        return ProcessProbe.fileDescriptors(process.pid());
    }

    long residentKib() {
        return ProcessProbe.residentKib(process.pid());
    }

    /** The heap in use after a collection, in KiB. */
    long liveHeapKib() {
        return Long.parseLong(command("HEAP", "HEAP"));
    }

    /** Forces breaker {@code name} open and closed {@code times} times, then resets it. */
    void flip(String name, int times) {
        command("FLIP " + name + " " + times, "FLIP");
    }

    /** Everything the child has written to standard output and error so far. */
    String log() {
        return log.toString();
    }

    /** Sends SIGTERM and waits up to {@code bound} for the process to end; whether it did. */
    boolean terminate(Duration bound) throws InterruptedException {
        process.destroy();
        return process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            commands.close(); // the child exits when its standard input ends
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }

    private String command(String line, String answerWord) {
        try {
            commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (IOException e) {
            throw new IllegalStateException("the child gateway does not take commands any more: " + log, e);
        }
        return answer(answerWord);
    }

    /** The rest of the next line that starts with {@code word}, waited for within a bound. */
    private String answer(String word) {
        try {
            String line = answers.poll(ANSWER_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null || line.equals(ENDED) || !line.startsWith(word + " ")) {
                if (ENDED.equals(line)) {
                    answers.add(ENDED);
                }
                throw new IllegalStateException("the child gateway did not answer " + word + " (got " + line + "): " + log);
            }
            return line.substring(word.length() + 1).trim();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void drain() {
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                log.append(line).append('\n');
                if (line.matches("(PORT|HEAP|FLIP|UNKNOWN) .*")) {
                    answers.add(line);
                }
            }
        } catch (IOException ended) {
            // the process is gone; whoever waits for an answer learns it below
        }
        answers.add(ENDED);
    }
}
