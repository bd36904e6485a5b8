package io.agentfuse.cli;

import java.util.List;
import java.util.Optional;

/**
 * The warning {@code serve} logs when the JVM was not told how big its heap may be. Then the JVM
 * sizes it from the machine's memory (up to a quarter of it, with G1 on a machine of two cores or
 * more): the gateway, whose live set is ~15 MiB, then held 314 MiB resident under small requests and
 * 420 MiB under 150 KB conversations on a 24 GiB machine, against 176–188 MiB with the recommended
 * flags (agentfuse-bench/gateway/RESULTS.md, run 57). Like Elasticsearch or Kafka, which ship their
 * heap settings, the gateway says which flags it is measured and documented with.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * HeapAdvice.of(ManagementFactory.getRuntimeMXBean().getInputArguments(), Runtime.getRuntime().maxMemory())
 *         .ifPresent(log::warn);
 * }</pre>
 */
final class HeapAdvice {

    /** The flags the README starts the gateway with, and every benchmark figure was measured with. */
    static final String RECOMMENDED_FLAGS = "-Xms128m -Xmx128m -XX:+UseSerialGC";

    /** JVM options that bound the heap: any of them means the operator chose. */
    private static final List<String> HEAP_BOUNDS = List.of("-Xmx", "-XX:MaxHeapSize=", "-XX:MaxRAM=",
            "-XX:MaxRAMPercentage=", "-XX:MaxRAMFraction=");

    private HeapAdvice() {
    }

    /**
     * The warning for a JVM started with {@code jvmArguments} (its input arguments, which include
     * {@code JAVA_TOOL_OPTIONS} and {@code JDK_JAVA_OPTIONS}) whose heap may grow to
     * {@code maxHeapBytes}; empty when one of them bounds the heap.
     */
    static Optional<String> of(List<String> jvmArguments, long maxHeapBytes) {
        boolean bounded = jvmArguments.stream().anyMatch(argument -> HEAP_BOUNDS.stream().anyMatch(argument::startsWith));
        if (bounded) {
            return Optional.empty();
        }
        return Optional.of("the JVM sized the heap from this machine's memory (up to " + (maxHeapBytes >> 20)
                + " MiB, no -Xmx given): the gateway needs far less and will hold memory it does not use; start it with "
                + "java " + RECOMMENDED_FLAGS + " -jar agentfuse.jar serve ... (see the gateway's README)");
    }
}
