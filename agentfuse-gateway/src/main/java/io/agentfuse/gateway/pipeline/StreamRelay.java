package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.internal.OnContext;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.server.LargeBodies;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.upstream.Redaction;
import io.agentfuse.gateway.upstream.TransportText;
import io.agentfuse.gateway.upstream.UpstreamStream;
import io.vertx.core.Context;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The pipeline's last step for a streamed answer: relays a provider stream that has begun to
 * the caller as SSE in the caller's dialect, with backpressure, and always ends the response:
 * with the dialect's terminator after a complete answer; after a failure with an error event and
 * then by closing the connection — never with a clean end of the chunked body, which clients such
 * as LangChain4j's would take for a complete (truncated) answer; silently when the caller has gone
 * (then the upstream call is cancelled). An upstream event that is not well-formed is never relayed.
 * How it writes (one write per upstream read, failing by closing) is its {@link RelayWriter}'s.
 *
 * <h2>Breaker accounting</h2>
 * The guarded unit of a stream is the whole stream: the guard hands the answering attempt's breaker
 * permit to the answer ({@link io.agentfuse.core.HeldPermit}, see {@link ChainExecution}) instead of
 * recording the first event as a success, and this relay reports the stream's end against it once
 * ({@link StreamAccounting}),
 * as one call, with its whole duration:
 * <ul>
 *   <li>a complete stream → a success with the usage it reported (over the breaker's
 *       {@code tokenOveruse} limit, {@code TOKEN_OVERUSE});</li>
 *   <li>a failure after the first byte → one failure of its kind: idle timeout or broken connection as
 *       the guard's classifier says, an error event from the provider as its dialect maps it, a
 *       malformed event — or one the caller's dialect cannot say (a tool call whose arguments are
 *       not a JSON object, for an Anthropic caller), as for a complete answer ({@link Delivery#body}) —
 *       as {@code ERROR}, an end before the terminator as {@code CONNECTION_ERROR};</li>
 *   <li>a caller who left, a stream the gateway ended itself (a subagent deadline, a fault of its
 *       own) → nothing: the permit is given back.</li>
 * </ul>
 * So a provider whose streams always break mid-way trips its breaker, and a stream that is slow or
 * token-heavy counts for {@code consecutiveTimeouts}, {@code slowCallRate} and {@code tokenOveruse}
 * as a complete answer does. Failures before the first byte are attempts the guard records itself.
 *
 * <p>With a {@link StreamContinuation} (see there) a text answer that breaks is continued instead.
 *
 * <p>Confined to the request's context: every handler hops there first.
 */
final class StreamRelay {

    private final HttpServerResponse response;
    private final HttpConnection connection;
    private final Context context;
    private final ModelRequest request;
    /** The answer relayed now: the first, or its continuation. */
    private StepAnswer answer;
    private UpstreamStream stream;
    private final StreamTranslator translator;
    private final StreamAccounting accounting;
    private final RelayWriter writer;
    /** Continues a broken text answer ({@link StreamContinuation#OFF} when the model does not). */
    private final StreamContinuation continuation;
    private boolean done;
    private boolean completed;

    StreamRelay(HttpServerResponse response, HttpConnection connection, Context context, ModelRequest request,
                StepAnswer answer, StreamContinuation continuation, GatewayMetrics metrics, Clock clock) {
        this.response = response;
        this.connection = connection;
        this.context = context;
        this.request = request;
        this.answer = answer;
        this.stream = answer.stream();
        this.continuation = continuation;
        this.translator = continuation.on()
                ? DialectTranslator.continuableStreamTranslator(request.chat(), answer.step().provider().dialect(), clock)
                : DialectTranslator.streamTranslator(request.chat(), answer.step().provider().dialect(), clock,
                answer.firstEvent());
        this.accounting = new StreamAccounting(metrics);
        this.writer = new RelayWriter(response, connection, context, this::onContext, () -> {
            if (!done) {
                stream.pause(); // the caller cannot keep up
            }
        }, () -> stream.resume(), stream.clientWriteTimeout());
    }

    /** Sends the head (200, SSE, the gateway headers) and relays every event until the stream ends. */
    void start(CallTrace trace, List<StepFailure> passed) {
        response.setStatusCode(200).setChunked(true)
                .putHeader("content-type", "text/event-stream")
                .putHeader("cache-control", "no-cache");
        ResponseHeaders.put(response, request, trace, answer.step().name(), passed, answer.step().dropped());
        if (!continuation.on()) {
            LargeBodies.letGoOfBody(connection); // nothing keeps the request's bytes once its answer has begun
        }
        listen(stream);
    }

    /** Relays {@code upstream}'s events while it is the stream relayed (a continuation replaces a broken one). */
    private void listen(UpstreamStream upstream) {
        translator.noteOnFailures(ProviderHeaders.failureNote(upstream.headers()));
        upstream.stallHandler(v -> whileRelayed(upstream, this::callerStalled));
        upstream.handler(event -> whileRelayed(upstream, () -> relay(event)))
                .exceptionHandler(error -> whileRelayed(upstream, () -> broke(error)))
                .endHandler(v -> whileRelayed(upstream, this::ended));
    }

    private void whileRelayed(UpstreamStream upstream, Runnable action) {
        onContext(() -> {
            if (upstream == stream) {
                action.run();
            }
        });
    }

    /** The tokens the stream reported so far (all of them once it ended). */
    io.agentfuse.gateway.dialect.Usage usage() {
        return translator.usage();
    }

    /** Whether the stream ended complete, with its terminator (its usage is then the provider's whole account). */
    boolean completed() {
        return completed;
    }

    /** The configured model whose stream this is. */
    ModelConfig answeredBy() {
        return answer.step().model();
    }

    /** Whether the relay ended a failed stream by closing the connection (the caller did not leave). */
    boolean closedOnPurpose() {
        return writer.closedOnPurpose();
    }

    /** The caller went away: stop reading from the provider; nothing is recorded against it. */
    void clientGone() {
        if (continuation.underWay()) {
            continuation.stop();
        } else if (!done) {
            done = true;
            stream.cancel();
            answer.permit().released();
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
        if (!done || continuation.underWay()) {
            terminate(error, message);
        }
    }

    private void terminate(GatewayError error, String message) {
        continuation.stop();
        done = true;
        stream.cancel();
        answer.permit().released();
        writer.failWith(translator.error(error.type(), message));
    }

    /**
     * What arrived cannot be said in the caller's dialect: the stream ends with an error, and counts
     * as a malformed event does ({@code ERROR}), as a complete answer that cannot be translated does.
     */
    private void untranslated(UntranslatableException untranslatable) {
        String message = Delivery.untranslated(answer.step(), untranslatable);
        accounting.failed(answer, StreamEvent.Error.malformed(message));
        terminate(GatewayError.UPSTREAM_ERROR, message);
    }

    private void relay(SseEvent event) {
        if (done) {
            return;
        }
        List<SseEvent> out;
        try {
            out = translator.translate(event);
        } catch (UntranslatableException untranslatable) {
            untranslated(untranslatable);
            return;
        }
        if (translator.failure().isPresent()) {
            // The stream failed inside: the provider's error event, or ours for a broken event, goes last.
            done = true;
            stream.cancel();
            failedInside(out);
        } else {
            writer.buffer(out);
        }
    }

    private void ended() {
        if (done) {
            return;
        }
        done = true;
        List<SseEvent> closing;
        try {
            closing = translator.end(); // a finish owed at the end closes the last block too
        } catch (UntranslatableException untranslatable) {
            untranslated(untranslatable);
            return;
        }
        if (translator.failure().isPresent()) {
            failedInside(closing); // ended before the answer was complete
        } else {
            completed = true;
            accounting.completed(answer, translator.streamUsage());
            writer.endWith(closing);
        }
    }

    /** The stream failed inside: recorded, and ended after {@code out}, which quotes the provider: cleared of credentials. */
    private void failedInside(List<SseEvent> out) {
        StreamEvent.Error failure = translator.failure().orElseThrow();
        accounting.failed(answer, failure);
        var provider = answer.step().provider();
        failed(Redaction.of(provider, out), failure.type(), Redaction.of(provider, failure.message()));
    }

    private void broke(Throwable error) {
        if (done) {
            return;
        }
        done = true;
        // Classified once, by the guard's classifier, and recorded against the permit the stream started with.
        Outcome outcome = accounting.broke(answer, error);
        GatewayError type = outcome == Outcome.TIMEOUT ? GatewayError.TIMEOUT : GatewayError.UPSTREAM_ERROR;
        String message = "the stream from model " + answer.step().name() + " broke off: " + TransportText.of(error);
        failed(continuation.on() ? List.of() : translator.error(type.type(), message), type.type(), message);
    }

    /**
     * Ends a stream that failed after its first byte, once {@code relayed} (which holds its error
     * event already unless the translator is continuable, which holds such events back) is written:
     * with a continuation when there can be one, else with the error event and a closed connection.
     */
    private void failed(List<SseEvent> relayed, String type, String message) {
        if (!continuation.on()) {
            writer.failWith(relayed);
            return;
        }
        writer.buffer(relayed);
        CompletableFuture<FallbackResult<StepAnswer>> next = continuation.after(answer.step(), translator);
        if (next == null) {
            writer.failWith(translator.error(type, message));
        } else {
            next.whenComplete((result, error) -> onContext(() -> continued(result, error, type, message)));
        }
    }

    /** The continuation's answer began ({@code result}) or it failed ({@code error}): relayed, or the stream ends. */
    private void continued(FallbackResult<StepAnswer> result, Throwable error, String type, String message) {
        if (!continuation.taken(result)) {
            return; // the stream was ended meanwhile
        }
        if (error != null) {
            writer.failWith(translator.error(type, message + "; the next steps did not continue it: "
                    + TransportText.of(OutcomeClassifier.unwrap(error))));
            return;
        }
        answer = result.value();
        stream = answer.stream();
        translator.continueWith(answer.step().provider().dialect());
        done = false;
        listen(stream);
    }

    private void onContext(Runnable action) {
        // Whatever state the relay is in after a bug, the stream ends now.
        OnContext.run(context, action, bug -> terminate(GatewayError.INTERNAL_ERROR,
                "the gateway failed while relaying the answer of model " + answer.step().name()));
    }
}
