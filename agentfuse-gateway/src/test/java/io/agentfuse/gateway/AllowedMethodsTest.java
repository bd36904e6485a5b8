package io.agentfuse.gateway;

import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each kind of route a Vert.x Web router holds says its methods for the paths it matches: an exact path, a
 * prefix, a path of parameters, a regular expression; a route of every method (a guard) says nothing.
 */
class AllowedMethodsTest {

    private final Vertx vertx = Vertx.vertx();
    private final Router router = Router.router(vertx);

    @AfterEach
    void close() {
        Await.result(vertx.close());
    }

    @Test
    void eachKindOfRouteNamesItsMethodsForThePathsItMatches() {
        router.route("/admin/*").handler(ctx -> ctx.next()); // a guard of every method
        router.route().handler(ctx -> ctx.next());
        router.post("/v1/messages").handler(ctx -> { });
        router.route("/healthz").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(ctx -> { });
        router.get("/admin/breakers/*").handler(ctx -> { });
        router.post("/admin/breakers/*").handler(ctx -> { });
        router.get("/mcp/:server").handler(ctx -> { });
        router.delete("/mcp/:server").handler(ctx -> { });
        router.getWithRegex("^/v1/models/(.+)$").handler(ctx -> { });
        router.postWithRegex("^/v1beta/models/([^/:]+):(generateContent|countTokens)$").handler(ctx -> { });

        assertThat(AllowedMethods.of(router, "/v1/messages")).isEqualTo("POST");
        assertThat(AllowedMethods.of(router, "/v1/messages/")).as("a trailing slash, as Vert.x Web matches it").isEqualTo("POST");
        assertThat(AllowedMethods.of(router, "/healthz")).isEqualTo("GET, HEAD");
        assertThat(AllowedMethods.of(router, "/admin/breakers/model:claude")).isEqualTo("GET, POST");
        assertThat(AllowedMethods.of(router, "/mcp/search")).isEqualTo("DELETE, GET");
        assertThat(AllowedMethods.of(router, "/mcp/search/deeper")).as("a parameter is one segment").isEmpty();
        assertThat(AllowedMethods.of(router, "/v1/models/gpt-4o-mini")).isEqualTo("GET");
        assertThat(AllowedMethods.of(router, "/v1beta/models/gemini-2.5-pro:countTokens")).isEqualTo("POST");
        assertThat(AllowedMethods.of(router, "/v1/messagesx")).as("an exact path is not a prefix").isEmpty();
        assertThat(AllowedMethods.of(router, "/admin/other")).as("guards say nothing").isEmpty();
    }
}
