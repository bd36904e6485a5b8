package io.agentfuse.bench.gateway;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads a CPU profile in async-profiler's collapsed form (one stack a line, frames joined by
 * {@code ;}, the thread first when recorded with {@code threads}, then the sample count) and
 * prints where the event-loop threads spent their time: self time by package (the kernel as one),
 * the frames with the most self time, and the inclusive time of every frame whose name starts
 * with a prefix. {@code measure-cost.sh} writes such a profile with {@code PROFILE=FILE}.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.ProfileSummary small.collapsed io/agentfuse
 * }</pre>
 */
public final class ProfileSummary {

    /** The threads that serve requests: Vert.x's event loops. */
    static final String EVENT_LOOP = "vert.x-eventloop";

    private final Map<String, Long> selfByPackage = new HashMap<>();
    private final Map<String, Long> selfByFrame = new HashMap<>();
    private final Map<String, Long> inclusive = new HashMap<>();
    private final String prefix;
    private long samples;

    ProfileSummary(String prefix) {
        this.prefix = prefix;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: ProfileSummary COLLAPSED_FILE [FRAME_PREFIX, default io/agentfuse]");
            System.exit(2);
        }
        ProfileSummary summary = new ProfileSummary(args.length == 2 ? args[1] : "io/agentfuse");
        try (Stream<String> lines = Files.lines(Path.of(args[0]))) {
            lines.forEach(summary::add);
        }
        summary.print(System.out);
    }

    /** Counts one line of the profile; stacks of other threads than the event loops are left out. */
    void add(String line) {
        int space = line.lastIndexOf(' ');
        if (space < 0 || !line.startsWith("[" + EVENT_LOOP)) {
            return;
        }
        long count = Long.parseLong(line.substring(space + 1).trim());
        String[] frames = line.substring(0, space).split(";");
        String leaf = frames[frames.length - 1];
        samples += count;
        selfByFrame.merge(leaf, count, Long::sum);
        selfByPackage.merge(packageOf(leaf), count, Long::sum);
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < frames.length; i++) {
            if (frames[i].startsWith(prefix) && seen.add(frames[i])) {
                inclusive.merge(frames[i], count, Long::sum);
            }
        }
    }

    /** {@code frame}'s package, three levels deep ({@code io/netty/channel}); kernel frames are one. */
    static String packageOf(String frame) {
        if (frame.endsWith("_[k]")) {
            return "kernel";
        }
        int slash = -1;
        for (int level = 0; level < 3; level++) {
            int next = frame.indexOf('/', slash + 1);
            if (next < 0) {
                return slash < 0 ? "native" : frame.substring(0, slash);
            }
            slash = next;
        }
        return frame.substring(0, slash);
    }

    void print(PrintStream out) {
        out.printf(Locale.ROOT, "%d samples on the event loops%n", samples);
        section(out, "self time by package", selfByPackage, 20);
        section(out, "self time by frame", selfByFrame, 25);
        section(out, "inclusive time of " + prefix + "*", inclusive, 40);
    }

    private void section(PrintStream out, String title, Map<String, Long> counts, int most) {
        out.printf(Locale.ROOT, "--- %s%n", title);
        List<Map.Entry<String, Long>> top = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(most).toList();
        for (Map.Entry<String, Long> entry : top) {
            out.printf(Locale.ROOT, "%5.1f%%  %s%n", 100.0 * entry.getValue() / Math.max(1, samples), entry.getKey());
        }
    }
}
