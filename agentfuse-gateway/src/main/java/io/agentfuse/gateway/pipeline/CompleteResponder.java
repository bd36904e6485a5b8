package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.fallback.FallbackResult;
import io.vertx.core.Context;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * The pipeline's last step for a complete (non-streamed) answer: the answering step's body in
 * the caller's dialect — passed through as received when the provider speaks it, translated
 * otherwise — with the gateway headers. The answer was checked to be well-formed when it arrived
 * (see {@link io.agentfuse.gateway.dialect.Dialect#checkAnswer}) and put in the caller's dialect
 * within its attempt ({@link Delivery#body}), where one that cannot be (a tool call whose arguments
 * Anthropic cannot carry) was a failed attempt of its step: what comes here is written as it is.
 *
 * <p>Stateless and thread-safe.
 */
final class CompleteResponder {

    private CompleteResponder() {
    }

    static void respond(HttpServerResponse response, HttpConnection connection, Context context, ModelRequest request,
                        FallbackResult<StepAnswer> result, CallTrace trace) {
        StepAnswer answer = result.value();
        ResponseHeaders.put(response, request, trace, answer.step().name(), result.passed(), answer.step().dropped());
        response.headers().set(HttpHeaders.CONTENT_TYPE, ResponseHeaders.APPLICATION_JSON);
        AnswerWriter.end(response.setStatusCode(answer.response().status()), connection, context, answer.callerBody());
    }
}
