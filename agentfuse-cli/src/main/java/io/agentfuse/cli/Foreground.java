package io.agentfuse.cli;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import picocli.CommandLine;

/** Keeps a started server in the foreground until a stop is requested, then closes it and Vert.x, in that order. */
final class Foreground {

    private Foreground() {
    }

    /** Blocks until {@code signal} asks to stop; returns the exit code 0. */
    static int runUntilStopped(StopSignal signal, Supplier<Future<Void>> closeServer, Vertx vertx)
            throws InterruptedException {
        try {
            signal.awaitStopRequest();
        } finally {
            try {
                closeServer.get().await();
            } finally {
                vertx.close().await();
                signal.stopped();
            }
        }
        return CommandLine.ExitCode.OK;
    }
}
