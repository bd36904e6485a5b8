package io.agentfuse.gateway.internal.vertx;

/**
 * A Vert.x internal the gateway reaches for is not where it was: this Vert.x differs from the one
 * the gateway was built and tested with. Thrown instead of going on without the hook.
 */
public final class MissingHookException extends IllegalStateException {

    /**
     * @param hook what the gateway reaches for, e.g. "the server's request decoder"
     * @param found what it found instead
     */
    MissingHookException(String hook, String found) {
        super("the gateway cannot reach " + hook + " in Vert.x " + VertxHookCheck.runningVersion() + " (" + found
                + "); run it with the Vert.x version of its build (vertx.version in the project's pom)");
    }
}
