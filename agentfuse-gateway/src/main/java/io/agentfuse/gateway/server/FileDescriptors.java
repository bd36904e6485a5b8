package io.agentfuse.gateway.server;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * What the process needs to survive running out of file descriptors.
 *
 * <p>Two things went wrong before: the acceptor, logging "Too many open files", loaded the
 * time-zone database for the log line's timestamp — which needs a file — and the class failed to
 * initialise for good ({@code NoClassDefFoundError … ZoneInfoFile}), killing the event loop; and
 * nothing kept descriptors free for the gateway's own work. So {@link #prepare()} initialises
 * what logging needs while files can still be opened, and {@link #connectionBudget} leaves a
 * quarter of the descriptors that are free at start for upstream connections and files.
 *
 * <p>Stateless and thread-safe.
 */
final class FileDescriptors {

    private FileDescriptors() {
    }

    /** Loads the time-zone data and the log formatter now, so that logging never needs a file later. */
    static void prepare() {
        ZonedDateTime.now(ZoneId.systemDefault());
        new SimpleFormatter().format(new LogRecord(Level.INFO, "agentfuse: file descriptors prepared"));
    }

    /**
     * How many client connections to accept at most: {@code configured}, or fewer when the
     * process's descriptor limit would otherwise be reached.
     */
    static int connectionBudget(int configured) {
        OptionalLong max = read(true);
        OptionalLong open = read(false);
        if (max.isEmpty() || open.isEmpty()) {
            return configured;
        }
        long free = max.getAsLong() - open.getAsLong();
        long budget = Math.max(1, free - free / 4);
        return (int) Math.min(configured, budget);
    }

    private static OptionalLong read(boolean maximum) {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return OptionalLong.of(maximum ? unix.getMaxFileDescriptorCount() : unix.getOpenFileDescriptorCount());
        }
        return OptionalLong.empty();
    }
}
