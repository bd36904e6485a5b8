package io.agentfuse.cli;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * The Vert.x instance every command runs on: with Netty's native epoll transport where it loads
 * (the CLI ships it for Linux x86-64), else with the JDK's NIO, which Vert.x falls back to by
 * itself. Native epoll moves bytes with fewer copies and calls than NIO's selector (the gateway's
 * CPU and allocation per small request drop a little; its RESULTS say how much).
 */
public final class CliVertx {

    private CliVertx() {
    }

    /** A new Vert.x instance, native transport preferred. */
    public static Vertx create() {
        return Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    }

    /** What {@code vertx} moves bytes with, for the start-up log: {@code native} (epoll), or {@code nio} and why. */
    public static String transport(Vertx vertx) {
        if (vertx.isNativeTransportEnabled()) {
            return "native";
        }
        Throwable cause = vertx.unavailableNativeTransportCause();
        return "nio" + (cause == null ? "" : " (native transport unavailable: " + cause + ")");
    }
}
