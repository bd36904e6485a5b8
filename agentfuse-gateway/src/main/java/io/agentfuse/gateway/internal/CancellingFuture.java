package io.agentfuse.gateway.internal;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The answer of work that must stop when its caller gives up: {@link #cancel} cancels the future
 * and, if that cancelled it, runs the stop action once (a provider call cancelled, a stream
 * closed). The one home of this link for the gateway's calls; the guards' timeouts and the
 * fallback chains cancel what they no longer wait for through it. Unlike a {@code whenComplete}
 * stage that watches for a cancellation, it costs no stage per call, and only the {@code cancel()}
 * that cancels it stops the work — not a second one, nor a {@link CancellationException} the
 * work itself ended with.
 *
 * <p>Thread-safe, as {@link CompletableFuture}; the stop action runs on the cancelling thread.
 *
 * <pre>{@code
 * CompletableFuture<Answer> answer = new CancellingFuture<>(call::cancel);
 * call.onDone(answer::complete);
 * }</pre>
 */
public final class CancellingFuture<T> extends CompletableFuture<T> {

    private final Runnable stop;

    /** A future whose cancellation runs {@code stop}. */
    public CancellingFuture(Runnable stop) {
        this.stop = Objects.requireNonNull(stop, "stop");
    }

    /**
     * Cancels this future and, if this call is what cancelled it, stops the work. (The JDK's
     * {@code cancel} also answers true when the future was cancelled before, or ended with a
     * {@link CancellationException}, so it cannot tell.) Completing with a
     * {@code CancellationException} is what {@code cancel} does: {@link #isCancelled()} and
     * {@link #get()} see no difference.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelledNow = completeExceptionally(new CancellationException());
        if (cancelledNow) {
            stop.run();
        }
        return cancelledNow || isCancelled();
    }

    /**
     * {@code source} mapped by {@code mapper}, where — unlike {@code thenApply} — cancelling the
     * result cancels {@code source}, so that the guard's cancellation reaches the upstream call;
     * a value that arrives after the cancellation, or that {@code mapper} refuses by throwing, is handed
     * to {@code discard} (a stream is closed); a failure of {@code source} is given as {@code failure} maps it.
     */
    public static <S, T> CompletableFuture<T> linked(CompletableFuture<S> source, Function<S, T> mapper,
                                                     Consumer<S> discard, Function<Throwable, Throwable> failure) {
        CompletableFuture<T> result = new CancellingFuture<>(() -> source.cancel(true));
        source.whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(failure.apply(error));
                return;
            }
            T mapped;
            try {
                mapped = mapper.apply(value);
            } catch (RuntimeException refused) {
                discard.accept(value);
                result.completeExceptionally(refused);
                return;
            }
            if (!result.complete(mapped)) {
                discard.accept(value);
            }
        });
        return result;
    }
}
