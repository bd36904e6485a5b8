package io.agentfuse.springai;

/**
 * An exception that {@link ModelFailures} made from a model client's own, so that agentfuse's
 * classifier reads it; {@link #original()} is what the client threw.
 *
 * <p>Implemented by {@link UpstreamHttpException}, {@link UpstreamIoException},
 * {@link ModelAuthException} and {@link ModelNotServedException}.
 */
public interface UpstreamFailure {

    /** The exception the model client threw. */
    RuntimeException original();
}
