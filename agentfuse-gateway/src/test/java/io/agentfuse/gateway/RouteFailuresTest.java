package io.agentfuse.gateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route that fails with a bug is answered 500 {@code internal_error} in JSON, and the bug is
 * logged with its cause: before, the 500 went out and nothing anywhere said what had failed. The
 * log line names the path, never the query, which may carry a key.
 */
class RouteFailuresTest {

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(RouteFailures.class);
    private Vertx vertx;
    private HttpServer server;

    @BeforeEach
    void start() {
        lines.start();
        logger.addAppender(lines);
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.get("/v1/broken").handler(ctx -> {
            throw new IllegalStateException("a bug in a handler");
        });
        RouteFailures.answerUnrouted(router);
        server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    }

    @AfterEach
    void stop() {
        logger.detachAppender(lines);
        Await.result(vertx.close());
    }

    @Test
    void aRouteThatFailsWithABugIsAnswered500AndTheBugIsLogged() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.actualPort() + "/v1/broken?key=sk-secret-in-query"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(500);
        assertThat(new JsonObject(answer.body()).getJsonObject("error").getString("type")).isEqualTo("internal_error");
        assertThat(lines.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getFormattedMessage()).isEqualTo("GET /v1/broken failed inside the gateway (answered 500)")
                    .doesNotContain("sk-secret");
            assertThat(line.getThrowableProxy().getMessage()).isEqualTo("a bug in a handler");
        });
    }
}
