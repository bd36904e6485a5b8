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

    /** This process's id. */
    public static long self() {
        return ProcessHandle.current().pid();
    }
}
