package io.agentfuse.gateway.limits;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The {@code main} of a gateway alone in a process of its own, so that a test can limit the
 * process (its open files, its heap) and measure it (descriptors, resident memory) without the
 * test's own clients and providers in the figures. Started by {@link ChildGatewayProcess} with the
 * YAML file as the only argument; {@code ${NAME}} in it is read from the environment, as
 * {@code agentfuse serve} does. It prints {@code PORT <n>} once listening and stops on SIGTERM or
 * when its standard input ends (so it never outlives the test JVM).
 *
 * <p>It obeys one command a line on standard input, each answered with one line:
 * <ul>
 *   <li>{@code HEAP}: collects garbage and answers {@code HEAP <live KiB>}, what the heap held as the collection ended;</li>
 *   <li>{@code FLIP <breaker> <n>}: forces breaker {@code <breaker>} open and closed {@code n}
 *       times (two events each, as an operator would over {@code /admin/breakers}), resets it and
 *       answers {@code FLIP done} once the event loops have written (or dropped) every event.</li>
 * </ul>
 */
public final class ChildGateway {

    private ChildGateway() {
    }

    public static void main(String[] args) throws Exception {
        Vertx vertx = GatewayVertx.create();
        AgentfuseConfig config = ConfigLoader.parse(Files.readString(Path.of(args[0])), args[0], System.getenv());
        GatewayServer gateway = GatewayServer.start(vertx, config).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                gateway.close().eventually(vertx::close).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("shutdown: " + e);
            }
        }));
        System.out.println("PORT " + gateway.port());
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = commands.readLine(); command != null; command = commands.readLine()) {
            System.out.println(obey(vertx, gateway, command.trim().split(" ")));
            System.out.flush();
        }
        System.exit(0);
    }

    /**
     * What the heap held as the last collection ended: each heap pool's usage after it. The heap's
     * usage read after {@code System.gc()} is not the live heap: every thread that allocates once
     * the collection is over claims a whole allocation buffer, which counts as used (it moved the
     * figure by up to 15 MiB between two runs of the same case).
     */
    private static long liveHeapAfterTheLastCollection() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    private static String obey(Vertx vertx, GatewayServer gateway, String[] command) throws Exception {
        switch (command[0]) {
            case "HEAP" -> {
                System.gc();
                return "HEAP " + liveHeapAfterTheLastCollection() / 1024;
            }
            case "FLIP" -> {
                CircuitBreaker breaker = gateway.runtime().registry().find(command[1]).orElseThrow();
                int times = Integer.parseInt(command[2]);
                for (int i = 0; i < times; i++) {
                    breaker.forceOpen("operator test " + i);
                    breaker.close("operator test " + i);
                }
                breaker.reset();
                // Events are written on the subscribers' event loops; a task queued on every loop
                // now runs after all of them.
                for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
                    loop.submit(() -> { }).get(60, TimeUnit.SECONDS);
                }
                return "FLIP done";
            }
            default -> {
                return "UNKNOWN " + String.join(" ", command);
            }
        }
    }
}
