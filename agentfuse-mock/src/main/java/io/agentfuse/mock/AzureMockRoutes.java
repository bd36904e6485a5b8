package io.agentfuse.mock;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;

/**
 * The Azure OpenAI routes of a {@link MockProvider}: the v1 API at {@code /openai/v1/chat/completions}
 * and {@code /openai/v1/responses} (the deployment is the body's {@code model}), and the older
 * {@code /openai/deployments/{deployment}/chat/completions}, which needs {@code ?api-version=} (a 404
 * without, as on Azure). {@code ?api-version=} is accepted on the v1 API when present. A request needs
 * {@code api-key} with the mock's key or {@code Authorization: Bearer} with its Entra token; anything
 * else gets Azure's 401.
 *
 * <p>Thread-safe.
 */
final class AzureMockRoutes {

    /** The path of the v1 API, below the resource's address. */
    static final String BASE_PATH = "/openai/v1";
    /** Azure's answer to a bad or missing {@code api-key}. */
    static final String BAD_KEY = "Access denied due to invalid subscription key or wrong API endpoint. Make sure to "
            + "provide a valid key for an active subscription and use a correct regional API endpoint for your resource.";
    private static final String BAD_TOKEN = "Unauthorized. Access token is missing, invalid, audience is incorrect "
            + "(https://cognitiveservices.azure.com), or have expired.";

    private final MockProvider mock;
    private final MockCredentials credentials;
    private final MockDialect chat = new AzureMockDialect(new OpenAiMockDialect(), true);
    private final MockDialect responses = new AzureMockDialect(new ResponsesMockDialect(), false);

    AzureMockRoutes(MockProvider mock, MockCredentials credentials) {
        this.mock = mock;
        this.credentials = credentials;
    }

    void mount(Router router) {
        router.post(BASE_PATH + "/chat/completions").handler(ctx -> answer(ctx, chat, null));
        router.post(BASE_PATH + "/responses").handler(ctx -> answer(ctx, responses, null));
        router.post("/openai/deployments/:deployment/chat/completions")
                .handler(ctx -> answer(ctx, chat, ctx.pathParam("deployment")));
    }

    private void answer(RoutingContext ctx, MockDialect dialect, String deployment) {
        RequestJournal.Entry entry = mock.record(ctx);
        HttpServerRequest request = ctx.request();
        if (refused(request)) {
            return;
        }
        if (deployment != null && request.getParam("api-version") == null) {
            MockResponder.answerAtOnce(request, 404, Map.of(), azureError("404", "Resource not found"));
            return;
        }
        JsonObject body = MockProvider.jsonBody(ctx);
        String model = deployment != null ? deployment : body == null ? null : body.getString("model");
        if (body == null || model == null) {
            MockResponder.answerAtOnce(request, 400, Map.of(), new JsonObject().put("error", new JsonObject()
                    .put("message", body == null ? "We could not parse the JSON body of your request." : "model is required")
                    .put("type", "invalid_request_error").put("param", null).put("code", null)));
            return;
        }
        JsonObject options = body.getValue("stream_options") instanceof JsonObject o ? o : new JsonObject();
        mock.play(ctx, entry, dialect, new MockCall(model, Boolean.TRUE.equals(body.getValue("stream")),
                Boolean.TRUE.equals(options.getValue("include_usage"))));
    }

    /** Refuses a request without the mock's key or Entra token, as Azure does; whether it did. */
    private boolean refused(HttpServerRequest request) {
        String key = request.getHeader("api-key");
        String token = ApiKeyCheck.bearer(request.getHeader("authorization"));
        if (key != null) {
            if (credentials.azureApiKey().equals(key)) {
                return false;
            }
        } else if (token != null) {
            if (credentials.azureAdToken().equals(token)) {
                return false;
            }
            MockResponder.answerAtOnce(request, 401, Map.of(), azureError("401", BAD_TOKEN));
            return true;
        }
        MockResponder.answerAtOnce(request, 401, Map.of(), azureError("401", BAD_KEY));
        return true;
    }

    private static JsonObject azureError(String code, String message) {
        return new JsonObject().put("error", new JsonObject().put("code", code).put("message", message));
    }
}
