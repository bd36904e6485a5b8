package io.agentfuse.langchain4j;

import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HeldPermit;
import io.agentfuse.core.LongCall;
import io.agentfuse.core.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One attempt of a guarded stream: the handler LangChain4j's model streams into. Its future
 * completes when the first token arrives (or fails before it: an error, the first-token timeout),
 * which is what the guard retries and the chain falls back on; after that the stream is committed
 * and every event goes to the caller's handler, and the stream's end, finished or broken, is
 * recorded against the breaker permit the attempt started with, through core's {@link HeldPermit}:
 * its whole duration, its usage, how it ended.
 *
 * <p>Events that arrive before the attempt is committed are kept, in order, and handed over at the
 * commit. An attempt given up before its first token (timed out, cancelled) ignores whatever its
 * model still sends, and cancels the model's stream when it gets a handle to it. Thread-safe:
 * LangChain4j calls it from its own thread; the commit and the timer may come from others.
 */
final class StreamAttempt implements StreamingChatResponseHandler, LongCall {

    private enum State { WAITING, STARTED, GIVEN_UP }

    private final CompletableFuture<StreamAttempt> started = new CompletableFuture<>();
    private final HeldPermit permit;
    private final List<Consumer<StreamingChatResponseHandler>> pending = new ArrayList<>();
    private State state = State.WAITING;
    private volatile Scheduler.Cancellable firstTokenTimer;
    private StreamingChatResponseHandler target;
    private StreamingHandle handle;

    private StreamAttempt(Guard guard) {
        this.permit = new HeldPermit(guard);
    }

    /** Starts streaming {@code request} from {@code model}; the future completes at the first token. */
    static CompletableFuture<StreamAttempt> start(StreamingChatModel model, ChatRequest request,
                                                  Duration firstTokenTimeout, Scheduler scheduler, Guard guard) {
        StreamAttempt attempt = new StreamAttempt(guard);
        attempt.firstTokenTimer = scheduler.schedule(
                () -> attempt.giveUp(new FirstTokenTimeoutException(firstTokenTimeout)), firstTokenTimeout.toNanos());
        attempt.started.whenComplete((value, error) -> {
            if (attempt.started.isCancelled()) {
                attempt.abandon(); // the guard's own timeout, or the caller, gave up on it
            }
        });
        try {
            model.chat(request, attempt);
        } catch (RuntimeException thrown) {
            attempt.giveUp(thrown);
        }
        return attempt.started;
    }

    /** Hands every event so far, and all later ones, to {@code handler}. */
    void commit(StreamingChatResponseHandler handler) {
        synchronized (this) {
            target = handler;
            for (Consumer<StreamingChatResponseHandler> event : pending) {
                event.accept(handler);
            }
            pending.clear();
        }
    }

    @Override
    public HeldPermit heldPermit() {
        return permit;
    }

    // ---------------------------------------------------------------- LangChain4j's events

    @Override
    public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
        event(handler -> handler.onPartialResponse(partial, context), context == null ? null : context.streamingHandle());
    }

    @Override
    public void onPartialThinking(PartialThinking thinking, PartialThinkingContext context) {
        event(handler -> handler.onPartialThinking(thinking, context), context == null ? null : context.streamingHandle());
    }

    @Override
    public void onPartialToolCall(PartialToolCall call, PartialToolCallContext context) {
        event(handler -> handler.onPartialToolCall(call, context), context == null ? null : context.streamingHandle());
    }

    @Override
    public void onCompleteToolCall(CompleteToolCall call) {
        event(handler -> handler.onCompleteToolCall(call), null);
    }

    @Override
    public void onUnmappedRawEvent(Object event) {
        synchronized (this) {
            if (state == State.STARTED) {
                deliver(handler -> handler.onUnmappedRawEvent(event));
            }
        }
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        boolean first;
        synchronized (this) {
            if (state == State.GIVEN_UP) {
                return;
            }
            first = begin();
            permit.finished(LangChain4jOutcomes.tokens(response)); // over the token limit: TOKEN_OVERUSE
            deliver(handler -> handler.onCompleteResponse(response));
        }
        if (first) {
            started.complete(this);
        }
    }

    @Override
    public void onError(Throwable error) {
        synchronized (this) {
            if (state == State.STARTED) {
                // The caller has seen part of the answer: it is told, not retried; the breaker counts it.
                permit.broke(error);
                deliver(handler -> handler.onError(error));
                return;
            }
        }
        giveUp(error);
    }

    // ---------------------------------------------------------------- the attempt's life

    private void event(Consumer<StreamingChatResponseHandler> event, StreamingHandle eventHandle) {
        boolean first;
        synchronized (this) {
            if (eventHandle != null) {
                handle = eventHandle;
            }
            if (state == State.GIVEN_UP) {
                cancelStream(); // a late answer nobody waits for: stop paying for it
                return;
            }
            first = begin();
            deliver(event);
        }
        if (first) {
            started.complete(this);
        }
    }

    /** Marks the first event; whether this was it. Called holding the lock. */
    private boolean begin() {
        if (state != State.WAITING) {
            return false;
        }
        state = State.STARTED;
        cancelTimer();
        return true;
    }

    /**
     * Gives up on an attempt whose future was cancelled: before its first token, or in the instant
     * between its first token and the commit (the guard's timeout won that race). Either way no
     * one will read it: drop what it kept and stop its stream.
     */
    private void abandon() {
        synchronized (this) {
            if (target != null) {
                return;
            }
            state = State.GIVEN_UP;
            pending.clear();
            cancelTimer();
            cancelStream();
        }
    }

    private void cancelStream() {
        if (handle != null && !handle.isCancelled()) {
            handle.cancel();
        }
    }

    private void cancelTimer() {
        Scheduler.Cancellable timer = firstTokenTimer;
        if (timer != null) {
            timer.cancel(); // null only if the timer fired before it was even stored
        }
    }

    private void deliver(Consumer<StreamingChatResponseHandler> event) {
        if (target != null) {
            event.accept(target);
        } else {
            pending.add(event);
        }
    }

    /** Ends a stream that has not started: the attempt fails with {@code error} (null when cancelled). */
    private void giveUp(Throwable error) {
        synchronized (this) {
            if (state != State.WAITING) {
                return;
            }
            state = State.GIVEN_UP;
            cancelTimer();
        }
        if (error != null) {
            started.completeExceptionally(RetryHint.attach(error));
        }
    }
}
