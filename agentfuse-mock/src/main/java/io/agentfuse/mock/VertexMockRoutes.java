package io.agentfuse.mock;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Locale;
import java.util.Map;

/**
 * The Vertex AI routes of a {@link MockProvider}, under {@code /v1} and {@code /v1beta1}:
 * Gemini models at {@code /projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent},
 * {@code :streamGenerateContent?alt=sse} and {@code :countTokens} (bodies and answers as the Gemini
 * mock's), and Anthropic models at {@code .../publishers/anthropic/models/{m}:rawPredict} and
 * {@code :streamRawPredict} (Anthropic Messages bodies with {@code anthropic_version:
 * "vertex-2023-10-16"} and no {@code model}; Anthropic's answers and errors). Every request needs
 * {@code Authorization: Bearer} with a live token of the mock's token endpoint ({@link VertexTokens}),
 * else 401 {@code UNAUTHENTICATED}; a token of another project's account gets 403
 * {@code PERMISSION_DENIED}, as on Vertex. A Gemini model Google has shut down ({@link GeminiModelCheck}) is
 * 404 {@code NOT_FOUND} "Publisher Model `projects/…/models/gemini-1.5-pro` was not found", as Vertex says it.
 *
 * <p>Thread-safe.
 */
final class VertexMockRoutes {

    /** The {@code anthropic_version} Anthropic models on Vertex AI take in the body. */
    static final String ANTHROPIC_VERSION = "vertex-2023-10-16";
    private static final String PREFIX = "/(v1|v1beta1)/projects/([^/]+)/locations/([^/]+)/publishers/";

    private final MockProvider mock;
    private final VertexTokens tokens;
    private final MockDialect gemini = new GeminiMockDialect();
    private final MockDialect countTokens = new GeminiCountTokensMockDialect();
    private final MockDialect anthropic = new AnthropicMockDialect();

    VertexMockRoutes(MockProvider mock, VertexTokens tokens) {
        this.mock = mock;
        this.tokens = tokens;
    }

    void mount(Router router) {
        router.post(VertexTokens.PATH).handler(ctx -> {
            mock.record(ctx);
            tokens.token(ctx);
        });
        router.postWithRegex(PREFIX + "google/models/([^/:]+):(generateContent|streamGenerateContent|countTokens)")
                .handler(this::answerGemini);
        router.postWithRegex(PREFIX + "anthropic/models/([^/:]+):(rawPredict|streamRawPredict)").handler(this::answerAnthropic);
    }

    private void answerGemini(RoutingContext ctx) {
        RequestJournal.Entry entry = mock.record(ctx);
        if (refused(ctx)) {
            return;
        }
        String model = ctx.pathParam("param3");
        if (GeminiModelCheck.NOT_SERVED.contains(model.toLowerCase(Locale.ROOT))) {
            // Vertex AI's own words for a Gemini model Google has shut down (the Gemini API's: GeminiModelCheck)
            String resource = ctx.request().path().replaceFirst("^/v1(beta1)?/", "").replaceFirst(":[^/]*$", "");
            MockResponder.answerAtOnce(ctx.request(), 404, Map.of(), GoogleErrors.body(404, "NOT_FOUND", "Publisher Model `"
                    + resource + "` was not found or your project does not have access to it. Please ensure you are using a"
                    + " valid model version. For more information, see:"
                    + " https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions"));
            return;
        }
        GeminiMockRoutes.answerChecked(mock, ctx, entry, gemini, countTokens, model, ctx.pathParam("param4"));
    }

    private void answerAnthropic(RoutingContext ctx) {
        RequestJournal.Entry entry = mock.record(ctx);
        if (refused(ctx)) {
            return;
        }
        JsonObject body = MockProvider.jsonBody(ctx);
        String problem;
        if (body == null) {
            problem = "The request body is not valid JSON.";
        } else if (!ANTHROPIC_VERSION.equals(body.getValue("anthropic_version"))) {
            problem = "anthropic_version: Input should be '" + ANTHROPIC_VERSION + "'";
        } else if (body.containsKey("model")) {
            problem = "model: Extra inputs are not permitted";
        } else if (!(body.getValue("max_tokens") instanceof Number)) {
            problem = "max_tokens: Field required";
        } else if (!(body.getValue("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            problem = "messages: at least one message is required";
        } else {
            problem = AnthropicPromptCheck.problem(body, ctx.pathParam("param3"),
                    String.join(",", ctx.request().headers().getAll("anthropic-beta")));
        }
        if (problem != null) {
            JsonObject error = new JsonObject().put("type", "error").put("error", new JsonObject()
                    .put("type", "invalid_request_error").put("message", problem));
            MockResponder.answerAtOnce(ctx.request(), 400, Map.of(), error);
            return;
        }
        mock.play(ctx, entry, anthropic, new MockCall(ctx.pathParam("param3"),
                "streamRawPredict".equals(ctx.pathParam("param4")), false));
    }

    /** Refuses a request without a live token of the path's project, as Vertex does; whether it did. */
    private boolean refused(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String bearer = ApiKeyCheck.bearer(request.getHeader("authorization"));
        VertexTokens.Issued token = bearer != null ? tokens.check(bearer) : null;
        if (token == null) {
            MockResponder.answerAtOnce(request, 401,
                    Map.of("www-authenticate", "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\""),
                    GoogleErrors.body(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected "
                            + "OAuth 2 access token, login cookie or other valid authentication credential. See "
                            + "https://developers.google.com/identity/sign-in/web/devconsole-project."));
            return true;
        }
        if (!token.account().project().equals(ctx.pathParam("param1"))) {
            String resource = request.path().replaceFirst("^/v1(beta1)?/", "").replaceFirst(":[^/]*$", "");
            MockResponder.answerAtOnce(request, 403, Map.of(), GoogleErrors.body(403, "PERMISSION_DENIED",
                    "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/"
                            + resource + "' (or it may not exist)."));
            return true;
        }
        return false;
    }
}
