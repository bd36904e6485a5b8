package io.agentfuse.gateway;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.transport.Transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Vert.x instance a gateway runs on, on the network transport {@code server.transport} names
 * ({@link ServerConfig.Transport}): the one place that decides which transport that is.
 *
 * <p>{@link ServerConfig.Transport#AUTO AUTO} takes the first of io_uring, epoll and NIO that
 * loads; a transport named outright must load, or nothing starts. The native transports need
 * Netty's native files on the class path (the command line's jar ships those of Linux x86-64); a
 * kernel older than 5.9, or a seccomp profile that refuses {@code io_uring_setup} (as container
 * runtimes' defaults often do), leaves io_uring unavailable and AUTO on epoll.
 *
 * <pre>{@code
 * Vertx vertx = GatewayVertx.create(config.server().transport());
 * log.info("network transport: {}", GatewayVertx.describe(vertx));   // "io_uring"
 * }</pre>
 */
public final class GatewayVertx {

    /** The native transports AUTO tries, best first; NIO when none loads. */
    private static final List<ServerConfig.Transport> NATIVE_BEST_FIRST =
            List.of(ServerConfig.Transport.IO_URING, ServerConfig.Transport.EPOLL);

    private GatewayVertx() {
    }

    /** A Vert.x instance with default options on the best transport that loads. */
    public static Vertx create() {
        return create(ServerConfig.Transport.AUTO);
    }

    /** A Vert.x instance with default options on {@code choice}. */
    public static Vertx create(ServerConfig.Transport choice) {
        return create(choice, new VertxOptions());
    }

    /**
     * A Vert.x instance with {@code options} on {@code choice}.
     *
     * @throws IllegalStateException when {@code choice} names a transport that cannot load here; the
     *                               message names {@code server.transport} and the cause
     */
    public static Vertx create(ServerConfig.Transport choice, VertxOptions options) {
        return Vertx.builder().with(options).withTransport(resolve(choice)).build();
    }

    /**
     * The transport {@code vertx} runs on, as {@code server.transport} writes it ({@code io_uring},
     * {@code epoll}, {@code nio}), followed by why each better one could not load, for the start-up
     * log: {@code epoll (io_uring unavailable: ...)}.
     */
    public static String describe(Vertx vertx) {
        Class<?> used = VertxHooks.transportClass(vertx);
        List<String> skipped = new ArrayList<>();
        for (ServerConfig.Transport candidate : NATIVE_BEST_FIRST) {
            Transport transport = vertxTransport(candidate);
            if (!loads(transport)) {
                skipped.add(name(candidate) + " unavailable: " + unavailability(transport));
            } else if (transport.implementation().getClass() == used) {
                return withSkipped(name(candidate), skipped);
            }
        }
        return withSkipped(name(ServerConfig.Transport.NIO), skipped);
    }

    static Transport resolve(ServerConfig.Transport choice) {
        if (choice == ServerConfig.Transport.NIO) {
            return Transport.NIO;
        }
        if (choice == ServerConfig.Transport.AUTO) {
            for (ServerConfig.Transport candidate : NATIVE_BEST_FIRST) {
                Transport transport = vertxTransport(candidate);
                if (loads(transport)) {
                    return transport;
                }
            }
            return Transport.NIO;
        }
        Transport transport = vertxTransport(choice);
        if (!loads(transport)) {
            throw new IllegalStateException("server.transport is " + name(choice) + ", which cannot load here ("
                    + unavailability(transport) + "); use auto to run on the best transport that loads");
        }
        return transport;
    }

    /** Vert.x's handle of a native transport; {@code null} when Vert.x could not even load its classes. */
    private static Transport vertxTransport(ServerConfig.Transport choice) {
        return switch (choice) {
            case IO_URING -> Transport.IO_URING;
            case EPOLL -> Transport.EPOLL;
            case NIO -> Transport.NIO;
            case AUTO -> throw new IllegalArgumentException("auto is a rule, not a transport");
        };
    }

    private static boolean loads(Transport transport) {
        return transport != null && transport.available();
    }

    private static String unavailability(Transport transport) {
        if (transport == null) {
            return "its classes are not on the class path";
        }
        Throwable cause = transport.unavailabilityCause();
        return cause == null ? "no cause given" : cause.toString();
    }

    private static String name(ServerConfig.Transport transport) {
        return transport.name().toLowerCase(Locale.ROOT);
    }

    private static String withSkipped(String name, List<String> skipped) {
        return skipped.isEmpty() ? name : name + " (" + String.join("; ", skipped) + ")";
    }
}
