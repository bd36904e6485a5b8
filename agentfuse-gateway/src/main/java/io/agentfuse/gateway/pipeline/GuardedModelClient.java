package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;

/**
 * The {@link ModelClient} of the gateway: routes, guards and calls as a caller's request would
 * be, without an HTTP exchange around it. An answer is read within the attempt that got it
 * ({@link Delivery#read(Clock)}), so that one which cannot be read is that step's failed attempt — counted
 * by its breaker, fallen back from — as a caller's answer that cannot be translated is. Thread-safe.
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
        // Read within each attempt: an answer that cannot be is that step's failure, and the next step answers.
        chains.run(router.plan(request, MultiMap.caseInsensitiveMultiMap()), Delivery.read(clock), new CallTrace(),
                        BudgetTicket.NONE)
                .whenComplete((result, error) -> {
                    if (error == null) {
                        answer.complete(result.value().read());
                        return;
                    }
                    GatewayException mapped = FailureResponder.toGatewayError(error);
                    answer.fail(mapped != null ? mapped : FailureResponder.passedOn(error));
                });
        return answer.future();
    }
}
