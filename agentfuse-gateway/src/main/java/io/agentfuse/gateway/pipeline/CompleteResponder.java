package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Clock;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.DialectTranslator;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * The pipeline's last step for a complete (non-streamed) answer: the answering step's body in
 * the caller's dialect — passed through as received when the provider speaks it, translated
 * otherwise — with the gateway headers. The answer was checked to be well-formed when it arrived
 * (see {@link io.agentfuse.gateway.dialect.Dialect#checkAnswer}); one that still cannot be
 * translated (a tool call whose arguments Anthropic cannot carry) ends as 502 {@code all_fallbacks_failed}.
 *
 * <p>Stateless and thread-safe.
 */
final class CompleteResponder {

    private CompleteResponder() {
    }

    static void respond(HttpServerResponse response, HttpConnection connection, Context context, ModelRequest request,
                        FallbackResult<StepAnswer> result, CallTrace trace, Clock clock) {
        StepAnswer answer = result.value();
        ResponseHeaders.put(response, request, trace, answer.step().name(), result.passed(), answer.step().dropped());
        Buffer body;
        try {
            body = clientBody(request, answer, clock);
        } catch (UntranslatableException untranslatable) {
            GatewayErrors.respond(response, request.dialect(), new GatewayException(GatewayError.ALL_FALLBACKS_FAILED,
                    "the answer of model " + answer.step().name() + " could not be translated: "
                            + untranslatable.getMessage()));
            return;
        }
        response.headers().set(HttpHeaders.CONTENT_TYPE, ResponseHeaders.APPLICATION_JSON);
        AnswerWriter.end(response.setStatusCode(answer.response().status()), connection, context, body);
    }

    private static Buffer clientBody(ModelRequest request, StepAnswer answer, Clock clock) {
        Dialect upstream = answer.step().provider().dialect();
        if (upstream == request.dialect()) {
            return answer.response().body();
        }
        return DialectTranslator.clientResponse(answer.response().json(), upstream, request.chat(), clock).toBuffer();
    }
}
