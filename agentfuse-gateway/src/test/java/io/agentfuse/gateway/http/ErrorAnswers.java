package io.agentfuse.gateway.http;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.LoopbackClient;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A server on loopback that answers each request with the error a test gives it, written by
 * {@link GatewayErrors#respond}: the error tests read the status, headers and body a caller reads.
 * Started before and stopped after each test.
 */
final class ErrorAnswers implements BeforeEachCallback, AfterEachCallback {

    private Vertx vertx;
    private LoopbackClient client;
    private final AtomicReference<Runnable> answer = new AtomicReference<>();
    private final AtomicReference<HttpServerResponse> response = new AtomicReference<>();

    @Override
    public void beforeEach(ExtensionContext context) {
        vertx = GatewayVertx.create();
        HttpServer server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            response.set(request.response());
            answer.get().run();
        }).listen(0, "127.0.0.1"));
        client = new LoopbackClient(vertx, server.actualPort());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Await.result(vertx.close());
    }

    /** The answer to a caller of {@code dialect} that reads {@code x-should-retry}. */
    Reply answerWith(Dialect dialect, GatewayException failure) {
        answer.set(() -> GatewayErrors.respond(response.get(), dialect, failure));
        return client.get("/");
    }

    /** The answer to a caller of {@code dialect} that reads what {@code rules} say it reads. */
    Reply answerWith(Dialect dialect, GatewayException failure, ClientRetryRules rules) {
        answer.set(() -> GatewayErrors.respond(response.get(), dialect, failure, rules));
        return client.get("/");
    }

    /** The answer to a caller of {@code dialect} whose request failed validation. */
    Reply answerWith(Dialect dialect, InvalidRequestException invalid) {
        answer.set(() -> GatewayErrors.respond(response.get(), dialect, invalid));
        return client.get("/");
    }
}
