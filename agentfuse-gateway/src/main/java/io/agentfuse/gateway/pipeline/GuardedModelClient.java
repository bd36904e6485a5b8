package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;

/**
 * The {@link ModelClient} of the gateway: routes, guards and calls as a caller's request would
 * be, without an HTTP exchange around it. Thread-safe.
 */
final class GuardedModelClient implements ModelClient {

    private final ModelRouter router;
    private final ChainExecution chains;
    private final Clock clock;

    GuardedModelClient(ModelRouter router, ChainExecution chains, Clock clock) {
        this.router = router;
        this.chains = chains;
        this.clock = clock;
    }

    @Override
    public Future<ChatResponse> complete(ChatRequest chat) {
        if (chat.stream()) {
            return Future.failedFuture(new GatewayException(GatewayError.INVALID_REQUEST,
                    "a ModelClient call cannot stream; send the request without \"stream\": true"));
        }
        ModelConfig model = router.model(chat.model()).orElse(null);
        if (model == null) {
            return Future.failedFuture(router.notServed(chat.model()));
        }
        ModelRequest request = new ModelRequest(chat, model, null, null);
        Promise<ChatResponse> answer = Promise.promise();
        chains.run(router.plan(request, MultiMap.caseInsensitiveMultiMap()), new CallTrace())
                .whenComplete((result, error) -> {
                    if (error != null) {
                        GatewayException mapped = FailureResponder.toGatewayError(error);
                        answer.fail(mapped != null ? mapped : OutcomeClassifier.unwrap(error));
                        return;
                    }
                    try {
                        StepAnswer step = result.value();
                        answer.complete(step.step().provider().dialect().parseResponse(step.response().json(), clock));
                    } catch (RuntimeException unreadable) {
                        answer.fail(new GatewayException(GatewayError.ALL_FALLBACKS_FAILED,
                                "the answer of model " + result.step() + " could not be read"));
                    }
                });
        return answer.future();
    }
}
