package io.agentfuse.cli;

import sun.misc.Signal;

/**
 * SIGHUP reloads the configuration, as nginx and Envoy operators expect ({@code kill -HUP <pid>}).
 * Without SIGHUP (Windows) nothing is installed; {@code POST /admin/reload} and the file watcher
 * still work.
 */
final class ReloadSignal {

    private ReloadSignal() {
    }

    /** Runs {@code onHangUp} on every SIGHUP; returns whether the platform has the signal. */
    static boolean install(Runnable onHangUp) {
        try {
            Signal.handle(new Signal("HUP"), signal -> onHangUp.run());
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException noSuchSignal) {
            return false;
        }
    }
}
