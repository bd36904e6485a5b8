package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.UpstreamStream;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * The pipeline's last step for a streamed answer: relays a provider stream that has begun to
 * the caller as SSE in the caller's dialect, with backpressure, and always ends the response:
 * with the dialect's terminator after a complete answer; after a failure with an error event and
 * then by closing the connection — never with a clean end of the chunked body, which clients such
 * as LangChain4j's would take for a complete (truncated) answer; silently when the caller has gone
 * (then the upstream call is cancelled). An upstream event that is not well-formed is never relayed.
 *
 * <h2>Breaker accounting after the first byte</h2>
 * The guarded unit of a stream is "the stream opened" (see {@link ChainExecution}); the guard has
 * recorded that as a success in the answering model's breaker by the time this relay starts.
 * What happens later is recorded here, in the same breaker, as one more call:
 * <ul>
 *   <li>a failure after the first byte → one failure of its kind: idle timeout or broken connection as
 *       classified, an error event from the provider as its dialect maps it, a malformed event as
 *       {@code ERROR}, an end before the terminator as {@code CONNECTION_ERROR};</li>
 *   <li>a complete stream whose reported usage exceeds the breaker's {@code tokenOveruse} limit →
 *       one {@code TOKEN_OVERUSE}; within the limit nothing more is recorded, so a healthy stream
 *       counts once.</li>
 * </ul>
 * The price: a stream that breaks counts as a success and a failure, so consecutive-failure
 * triggers see streams that always break mid-way as alternating; a {@code failureRate} trigger
 * above 50 % does not fire on them either. Failures before the first byte (the common case: 5xx,
 * 429, timeouts to the first token) are counted exactly, by the guard.
 *
 * <p>Confined to the request's context: every handler hops there first.
 */
final class StreamRelay {

    /** The most bytes of events kept for one write. */
    private static final int MAX_UNWRITTEN_BYTES = 32 * 1024;

    private final HttpServerResponse response;
    private final HttpConnection connection;
    private final Context context;
    private final ModelRequest request;
    private final StepAnswer answer;
    private final UpstreamStream stream;
    private final StreamTranslator translator;
    private final GatewayMetrics metrics;
    private boolean done;
    private boolean closedOnPurpose;
    /**
     * Events translated but not yet written: one write per batch that arrived together, in a buffer
     * made at the write for the batch's length (a buffer made at the first event grew with the batch,
     * copying itself at each doubling: for the bench's burst of 21 events, 1 KB to 8 KB).
     */
    private final List<SseEvent> unwritten = new ArrayList<>();
    /** The wire length of {@link #unwritten} (sizes the write's buffer; exact for the usual relayed event). */
    private int unwrittenBytes;
    /** Whether a task to write {@link #unwritten} is queued on the context. */
    private boolean writeQueued;

    StreamRelay(HttpServerResponse response, HttpConnection connection, Context context, ModelRequest request,
                StepAnswer answer, GatewayMetrics metrics, Clock clock) {
        this.response = response;
        this.connection = connection;
        this.context = context;
        this.request = request;
        this.answer = answer;
        this.stream = answer.stream();
        this.translator = DialectTranslator.streamTranslator(request.chat(), answer.step().provider().dialect(), clock,
                answer.firstEvent());
        this.metrics = metrics;
    }

    /** Sends the head (200, SSE, the gateway headers) and relays every event until the stream ends. */
    void start(CallTrace trace, List<StepFailure> passed) {
        response.setStatusCode(200).setChunked(true)
                .putHeader("content-type", "text/event-stream")
                .putHeader("cache-control", "no-cache");
        ResponseHeaders.put(response, request, trace, answer.step().name(), passed);
        response.drainHandler(v -> stream.resume());
        stream.stallHandler(v -> onContext(this::callerStalled));
        stream.handler(event -> onContext(() -> relay(event)))
                .exceptionHandler(error -> onContext(() -> broke(error)))
                .endHandler(v -> onContext(this::ended));
    }

    /** The tokens the stream reported so far (all of them once it ended). */
    io.agentfuse.gateway.dialect.Usage usage() {
        return translator.usage();
    }

    /** Whether the relay ended a failed stream by closing the connection (the caller did not leave). */
    boolean closedOnPurpose() {
        return closedOnPurpose;
    }

    /** The caller went away: stop reading from the provider; nothing is recorded against it. */
    void clientGone() {
        if (!done) {
            done = true;
            stream.cancel();
            answer.permit().release();
        }
    }

    /**
     * The caller stopped reading for {@code server.clientWriteTimeout}: the provider call is cancelled
     * already (so it no longer holds the provider's pool); the caller is cut off. Not the provider's fault.
     */
    private void callerStalled() {
        if (!done) {
            done = true;
            Disconnect.now(connection); // a graceful close would wait for the caller to read
        }
    }

    /** Ends the stream now with an error event of {@code error} (e.g. a subagent deadline). */
    void abort(GatewayError error, String message) {
        if (!done) {
            terminate(error, message);
        }
    }

    private void terminate(GatewayError error, String message) {
        done = true;
        stream.cancel();
        answer.permit().release();
        failWith(translator.error(error.type(), message));
    }

    private void relay(SseEvent event) {
        if (done) {
            return;
        }
        List<SseEvent> out;
        try {
            out = translator.translate(event);
        } catch (UntranslatableException untranslatable) {
            abort(GatewayError.UPSTREAM_ERROR, "the answer of model " + answer.step().name()
                    + " could not be translated: " + untranslatable.getMessage());
            return;
        }
        if (translator.failure().isPresent()) {
            // The stream failed inside: the provider's error event, or ours for a broken event, goes last.
            done = true;
            stream.cancel();
            recordFailure(outcomeOf(translator.failure().get()));
            failWith(out);
        } else {
            buffer(out);
        }
    }

    /**
     * Keeps {@code events} for the write that follows the batch they arrived in: the events of one
     * upstream read are parsed and relayed one after another on this context, and the task queued
     * by the first of them runs after the last, so the caller gets one write (one chunk, one
     * flush) per batch instead of one per event.
     */
    private void buffer(List<SseEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        if (!writeQueued) {
            writeQueued = true;
            context.runOnContext(v -> onContext(() -> {
                writeQueued = false;
                flush();
            }));
        }
        for (int i = 0; i < events.size(); i++) {
            SseEvent event = events.get(i);
            unwritten.add(event);
            unwrittenBytes += event.wireLength();
        }
        if (unwrittenBytes >= MAX_UNWRITTEN_BYTES) {
            // A fast provider's batch can be large: written in pieces, so that backpressure
            // (pausing the provider) works as promptly as for single events.
            flush();
        }
    }

    private void flush() {
        if (unwritten.isEmpty()) {
            return;
        }
        if (response.closed() || response.ended()) {
            forgetUnwritten();
            return;
        }
        response.write(takeUnwritten(0));
        if (!done && response.writeQueueFull()) {
            stream.pause();
        }
    }

    private void ended() {
        if (done) {
            return;
        }
        done = true;
        List<SseEvent> closing = translator.end();
        if (translator.failure().isPresent()) {
            recordFailure(outcomeOf(translator.failure().get())); // ended before the answer was complete
            failWith(closing);
        } else {
            recordTokens();
            endWith(closing);
        }
    }

    private void broke(Throwable error) {
        if (done) {
            return;
        }
        done = true;
        CircuitBreaker breaker = answer.step().guard().circuitBreaker();
        Outcome outcome = breaker == null ? Outcome.ERROR : breaker.config().classifier().classify(error);
        if (breaker != null) {
            // Classified once, above; recorded against the permit the stream started with.
            answer.permit().record(outcome, elapsedNanos(), RetryAfter.ofError(error, breaker.clock().epochMillis()));
        }
        metrics.streamInterrupted(answer.step().name());
        meterCall(outcome.name());
        GatewayError type = outcome == Outcome.TIMEOUT ? GatewayError.TIMEOUT : GatewayError.UPSTREAM_ERROR;
        failWith(translator.error(type.type(), "the stream from model " + answer.step().name() + " broke off: "
                + error.getMessage()));
    }

    private void recordFailure(Outcome outcome) {
        answer.permit().failed(outcome, elapsedNanos());
        metrics.streamInterrupted(answer.step().name());
        meterCall(outcome.name());
    }

    private void recordTokens() {
        answer.permit().finished(elapsedNanos(), translator.usage().total()); // over the limit: TOKEN_OVERUSE
        meterCall(null);
    }

    /** The stream as one model call for the GenAI meters: its whole duration, its usage, how it ended. */
    private void meterCall(String errorType) {
        PlannedStep step = answer.step();
        metrics.modelCall(step.provider().name(), step.model().upstreamModel(), elapsedNanos(),
                errorType == null ? translator.usage() : null, errorType);
    }

    private Outcome outcomeOf(StreamEvent.Error error) {
        return switch (error.cause()) {
            case PROVIDER -> answer.step().provider().dialect().streamErrorOutcome(error.type());
            case MALFORMED -> Outcome.ERROR;
            case CUT -> Outcome.CONNECTION_ERROR;
        };
    }

    private long elapsedNanos() {
        return System.nanoTime() - answer.startedNanos();
    }

    /** What is still unwritten, as one buffer with room for {@code moreBytes}; nothing is unwritten after. */
    private Buffer takeUnwritten(int moreBytes) {
        Buffer frame = Buffer.buffer(unwrittenBytes + moreBytes);
        for (int i = 0; i < unwritten.size(); i++) {
            unwritten.get(i).appendTo(frame);
        }
        forgetUnwritten();
        return frame;
    }

    private void forgetUnwritten() {
        unwritten.clear();
        unwrittenBytes = 0;
    }

    /** What is still unwritten followed by {@code events}, as one buffer. */
    private Buffer lastFrame(List<SseEvent> events) {
        int more = 0;
        for (SseEvent event : events) {
            more += event.wireLength();
        }
        Buffer frame = takeUnwritten(more);
        events.forEach(event -> event.appendTo(frame));
        return frame;
    }

    private void endWith(List<SseEvent> events) {
        Buffer frame = lastFrame(events);
        if (!response.closed() && !response.ended()) {
            if (frame.length() == 0) {
                response.end();
            } else {
                response.end(frame);
            }
        }
    }

    /**
     * Writes the error events, then closes the connection instead of ending the chunked body, so
     * that every HTTP client sees the stream fail rather than end.
     */
    private void failWith(List<SseEvent> events) {
        if (response.closed() || response.ended()) {
            return;
        }
        closedOnPurpose = true;
        Buffer frame = lastFrame(events);
        if (frame.length() == 0) {
            connection.close();
            return;
        }
        response.write(frame).onComplete(written -> connection.close());
    }

    private void onContext(Runnable action) {
        // Whatever state the relay is in after a bug, the stream ends now.
        OnContext.run(context, action, bug -> terminate(GatewayError.INTERNAL_ERROR,
                "the gateway failed while relaying the answer of model " + answer.step().name()));
    }
}
