package io.agentfuse.springai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * The connection to a model provider failed: refused, reset, unresolved or timed out. The I/O
 * error found in the client's exception is this exception's cause, where agentfuse's classifier
 * looks ({@code CONNECTION_ERROR} or {@code TIMEOUT}).
 *
 * <p>Immutable and thread-safe; made by {@link ModelFailures}.
 */
public final class UpstreamIoException extends UncheckedIOException implements UpstreamFailure {

    private final transient RuntimeException original;

    /** The I/O failure {@code cause} found inside {@code original}. */
    public UpstreamIoException(RuntimeException original, IOException cause) {
        super(original.getMessage() == null ? cause.toString() : original.getMessage(), cause);
        this.original = Objects.requireNonNull(original, "original");
    }

    @Override
    public RuntimeException original() {
        return original;
    }
}
