package io.agentfuse.gateway.internal.vertx;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up check of the seam's hooks, and a hook that finds nothing. */
class VertxHookCheckTest {

    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void everyHookFindsWhatItReachesForInTheVertxOfTheBuild() {
        Await.result(VertxHookCheck.verify(vertx));
    }

    @Test
    void aRequestDecoderThatIsNotWhereVertxPutsItFailsLoudlyInsteadOfLeavingTheConnectionUnguarded() {
        // Given a server connection whose pipeline has no request decoder under Vert.x's name
        Promise<Throwable> thrown = Promise.promise();
        HttpServerOptions options = new HttpServerOptions();
        HttpServer server = vertx.createHttpServer(options).connectionHandler(connection -> {
            VertxHooks.channel(connection).pipeline().remove(VertxHooks.REQUEST_DECODER);
            try {
                VertxHooks.replaceRequestDecoder(connection, () -> new ServerRequestDecoder(options) { });
                thrown.complete(null);
            } catch (RuntimeException e) {
                thrown.complete(e);
            }
            connection.close();
        }).requestHandler(request -> request.response().end());
        int port = Await.result(server.listen(0, "127.0.0.1")).actualPort();
        HttpClient client = vertx.createHttpClient();

        // When it is asked to replace that decoder
        client.request(HttpMethod.GET, port, "127.0.0.1", "/").compose(request -> request.send());

        // Then it throws, naming the hook and the Vert.x it runs on
        assertThat(Await.result(thrown.future())).isInstanceOf(MissingHookException.class)
                .hasMessageContaining("the server's request decoder").hasMessageContaining("Vert.x 5.");
    }
}
