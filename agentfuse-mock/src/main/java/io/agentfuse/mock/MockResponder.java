package io.agentfuse.mock;

import io.agentfuse.mock.MockDialect.StreamIds;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plays one {@link MockStep} as the answer to one provider request: waits, then answers with an
 * error, a complete body or a stream (framed by the dialect: SSE, or Bedrock's binary event
 * stream), which may end in an in-stream error, or drops the connection. All waiting is done with
 * Vert.x timers (and a test's {@link MockHold}), so a slow scripted answer never blocks the event loop.
 *
 * <p>One instance per request; used on the request's event loop only.
 */
final class MockResponder {

    private final Vertx vertx;
    private final HttpServerRequest request;
    private final MockDialect dialect;
    private final RequestJournal.Entry journal;
    private final MockHold hold;
    private boolean droppedOnPurpose;
    private boolean finished;

    MockResponder(Vertx vertx, HttpServerRequest request, MockDialect dialect, RequestJournal.Entry journal, MockHold hold) {
        this.vertx = vertx;
        this.request = request;
        this.dialect = dialect;
        this.journal = journal;
        this.hold = hold;
        request.response().closeHandler(closed -> {
            if (!finished && !droppedOnPurpose) {
                journal.markDisconnected();
            }
        });
    }

    /**
     * Answers a request at once, without taking a step of the script: a refusal of what a provider
     * does not accept (a bad key, a bad signature, a malformed body), or a fixed answer (a model list).
     */
    static void answerAtOnce(HttpServerRequest request, int status, Map<String, String> headers, JsonObject body) {
        HttpServerResponse response = request.response().setStatusCode(status);
        headers.forEach(response::putHeader);
        if (!response.headers().contains("content-type")) {
            response.putHeader("content-type", "application/json");
        }
        response.end(body.encode());
    }

    /** Answers the request according to {@code step}, after its delay and the test's hold; {@code call} is what it asks for. */
    void answer(MockStep step, MockCall call) {
        after(step.delayMs(), () -> hold.whenReleased(vertx.getOrCreateContext(), () -> after(0, () -> respond(step, call))));
    }

    private void respond(MockStep step, MockCall call) {
        HttpServerResponse response = request.response();
        if (step.drop() == MockStep.Drop.BEFORE_RESPONSE) {
            drop();
            return;
        }
        response.setStatusCode(step.status());
        dialect.requestIdHeaders().forEach(response::putHeader); // a scripted one, below, replaces it
        step.headers().forEach(response::putHeader);
        if (step.retryAfter() != null) {
            response.putHeader("retry-after", step.retryAfter());
        }
        if (step.retryAfterMs() != null) {
            response.putHeader("retry-after-ms", step.retryAfterMs());
        }
        if (!step.succeeds()) {
            if (step.body() == null) {
                dialect.errorHeaders(step.status(), step.errorType()).forEach((name, value) -> {
                    if (!response.headers().contains(name)) { // a scripted header wins
                        response.putHeader(name, value);
                    }
                });
            }
            send(step.body() != null ? step.body() : dialect.error(step.status(), step.errorType()), step);
        } else if (call.stream()) {
            stream(step, call);
        } else {
            send(step.body() != null ? step.body() : dialect.success(step, call.model()), step);
        }
    }

    private void send(Object body, MockStep step) {
        HttpServerResponse response = request.response();
        if (!response.headers().contains("content-type")) { // a scripted content type wins
            response.putHeader("content-type", body instanceof JsonObject ? "application/json"
                    : body instanceof Buffer ? "application/octet-stream" : "text/plain");
        }
        Buffer bytes = bytes(body);
        if (step.drop() == MockStep.Drop.MID_STREAM) {
            response.putHeader("content-length", String.valueOf(bytes.length()));
            response.write(bytes.slice(0, bytes.length() / 2)).onComplete(written -> drop());
            return;
        }
        finished = true;
        response.end(bytes);
    }

    /** A scripted body's bytes: bytes as they are, a JSON object encoded, anything else as its text. */
    private static Buffer bytes(Object body) {
        return body instanceof Buffer bytes ? bytes
                : Buffer.buffer(body instanceof JsonObject json ? json.encode() : String.valueOf(body));
    }

    private void stream(MockStep step, MockCall call) {
        HttpServerResponse response = request.response();
        response.setChunked(true)
                .putHeader("content-type", dialect.streamContentType())
                .putHeader("cache-control", "no-cache");
        if (step.body() != null) {
            finished = true;
            response.end(bytes(step.body()));
            return;
        }
        StreamIds ids = new StreamIds(dialect.nextId(), call.model(), System.currentTimeMillis() / 1000,
                call.includeUsage());
        response.writeHead();
        streamPiece(step, ids, 0);
    }

    private void streamPiece(MockStep step, StreamIds ids, int index) {
        if (step.drop() == MockStep.Drop.MID_STREAM && index == step.dropAfterChunks()) {
            drop();
            return;
        }
        if (step.streamError() != null && index == Math.min(step.streamErrorAfterChunks(), step.chunks().size())) {
            List<MockEvent> events = new ArrayList<>();
            if (index == 0) {
                events.addAll(dialect.opening(step, ids.model(), ids));
            }
            events.addAll(dialect.streamError(step.streamError(), step.errorType(), ids));
            finished = true;
            request.response().end(dialect.frame(events));
            return;
        }
        after(index == 0 ? step.firstChunkDelayMs() : step.chunkDelayMs(), () -> {
            List<MockEvent> events = new ArrayList<>();
            if (index == 0) {
                events.addAll(dialect.opening(step, ids.model(), ids));
            }
            events.addAll(dialect.text(step.chunks().get(index), ids));
            boolean last = index == step.chunks().size() - 1;
            if (last && step.drop() != MockStep.Drop.MID_STREAM && step.streamError() == null) {
                events.addAll(dialect.toolCalls(step, ids));
                events.addAll(dialect.closing(step, ids));
            }
            request.response().write(dialect.frame(events));
            if (!last || step.streamError() != null) {
                streamPiece(step, ids, index + 1);
            } else if (step.drop() == MockStep.Drop.MID_STREAM) {
                drop();
            } else {
                finished = true;
                request.response().end();
            }
        });
    }

    private void after(long delayMs, Runnable action) {
        Runnable guarded = () -> {
            if (!request.response().closed()) {
                action.run();
            }
        };
        if (delayMs <= 0) {
            guarded.run();
        } else {
            vertx.setTimer(delayMs, timer -> guarded.run());
        }
    }

    private void drop() {
        droppedOnPurpose = true;
        request.connection().close();
    }
}
