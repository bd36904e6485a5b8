package io.agentfuse.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP reloads the configuration, as nginx and Envoy operators expect ({@code kill -HUP <pid>}).
 * A process started with SIGHUP ignored ({@code nohup}, some service managers) keeps it ignored:
 * the JVM does not take over an ignored SIGHUP, so {@link #install} reports it and the caller says
 * so; {@code POST /admin/reload} and the file watcher still work. Without SIGHUP at all (Windows)
 * nothing is installed either.
 */
final class ReloadSignal {

    /** What became of SIGHUP. */
    enum Installed {
        /** Every SIGHUP reloads. */
        RELOADS,
        /** The process was started with SIGHUP ignored, and the JVM leaves it so. */
        IGNORED_BY_PARENT,
        /** The platform has no SIGHUP. */
        NO_SUCH_SIGNAL
    }

    private ReloadSignal() {
    }

    /** Runs {@code onHangUp} on every SIGHUP, if the process may receive it. */
    static Installed install(Runnable onHangUp) {
        try {
            SignalHandler previous = Signal.handle(new Signal("HUP"), signal -> onHangUp.run());
            return previous == SignalHandler.SIG_IGN ? Installed.IGNORED_BY_PARENT : Installed.RELOADS;
        } catch (IllegalArgumentException | UnsupportedOperationException noSuchSignal) {
            return Installed.NO_SUCH_SIGNAL;
        }
    }
}
