package io.agentfuse.gateway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Open file descriptors and resident memory of a process, from {@code /proc} (Linux). */
public final class ProcessProbe {

    private ProcessProbe() {
    }

    /** How many file descriptors process {@code pid} has open. */
    public static int fileDescriptors(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resident set size of process {@code pid}, in KiB. */
    public static long residentKib(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
                    .findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The TCP connections of this machine to or from {@code port}, one line each: local and remote
     * port, and the bytes waiting in the kernel to be sent ({@code tx}) and to be read ({@code rx}),
     * from {@code /proc/net/tcp} and {@code tcp6}. Tells, when a transfer stalls, which side holds
     * the bytes: a sender whose kernel queue stays full, or a reader that stopped reading.
     */
    public static String tcpQueues(int port) {
        StringBuilder lines = new StringBuilder();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length < 5 || !fields[1].contains(":")) {
                        continue; // the header
                    }
                    int local = Integer.parseInt(fields[1].substring(fields[1].indexOf(':') + 1), 16);
                    int remote = Integer.parseInt(fields[2].substring(fields[2].indexOf(':') + 1), 16);
                    if (local == port || remote == port) {
                        String[] queues = fields[4].split(":");
                        lines.append(String.format("%n%d -> %d: tx %d, rx %d", local, remote,
                                Long.parseLong(queues[0], 16), Long.parseLong(queues[1], 16)));
                    }
                }
            } catch (IOException unreadable) {
                lines.append(System.lineSeparator()).append(table).append(": ").append(unreadable);
            }
        }
        try { // the machine's TCP memory: under pressure, the kernel shrinks every socket's buffers
            lines.append(System.lineSeparator()).append(Files.readString(Path.of("/proc/net/sockstat")).lines()
                    .filter(line -> line.startsWith("TCP:")).findFirst().orElse(""));
        } catch (IOException unreadable) {
            lines.append(System.lineSeparator()).append("/proc/net/sockstat: ").append(unreadable);
        }
        return lines.toString();
    }

    /** This process's id. */
    public static long self() {
        return ProcessHandle.current().pid();
    }
}
