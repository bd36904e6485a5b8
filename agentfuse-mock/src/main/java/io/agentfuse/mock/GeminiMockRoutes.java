package io.agentfuse.mock;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Map;

/**
 * The Gemini API routes of a {@link MockProvider}: {@code POST /v1beta/models/{model}:generateContent},
 * {@code :streamGenerateContent?alt=sse}, {@code :countTokens}, {@code GET /v1beta/models} and
 * {@code GET /v1beta/models/{model}} (also under {@code /v1}). The API key comes in
 * {@code x-goog-api-key} or {@code ?key=}; as on the real API, a request without one is refused with
 * 403 {@code PERMISSION_DENIED} and a wrong one with 400 {@code INVALID_ARGUMENT} (reason
 * {@code API_KEY_INVALID}); bodies are checked by {@link GeminiRequestCheck}. A stream is served as SSE
 * only ({@code alt=sse}, what the SDKs ask for): without it the mock refuses the request, where the
 * real API would stream a JSON array.
 *
 * <p>Thread-safe.
 */
final class GeminiMockRoutes {

    /** The models {@code GET /v1beta/models} lists. */
    static final List<String> MODELS = List.of("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.0-flash");
    private static final String SERVICE = "generativelanguage.googleapis.com";

    private final MockProvider mock;
    private final String apiKey;
    private final MockDialect dialect = new GeminiMockDialect();
    private final MockDialect countTokens = new GeminiCountTokensMockDialect();

    GeminiMockRoutes(MockProvider mock, String apiKey) {
        this.mock = mock;
        this.apiKey = apiKey;
    }

    void mount(Router router) {
        router.postWithRegex("/(v1|v1beta)/models/([^/:]+):(generateContent|streamGenerateContent|countTokens)")
                .handler(this::answer);
        router.getWithRegex("/(v1|v1beta)/models").handler(this::list);
        router.getWithRegex("/(v1|v1beta)/models/([^/:]+)").handler(this::describe);
    }

    private void answer(RoutingContext ctx) {
        RequestJournal.Entry entry = mock.record(ctx);
        if (refusedKey(ctx.request())) {
            return;
        }
        String method = ctx.pathParam("param2");
        String gone = GeminiModelCheck.problem(ctx.pathParam("param1"), ctx.pathParam("param0"), method);
        if (gone != null) {
            MockResponder.answerAtOnce(ctx.request(), 404, Map.of(), GoogleErrors.body(404, "NOT_FOUND", gone));
            return;
        }
        answerChecked(mock, ctx, entry, dialect, countTokens, ctx.pathParam("param1"), method);
    }

    /**
     * Checks a {@code generateContent}-family body and plays the script for it, in the Gemini
     * dialect; shared with the Vertex mock's Gemini models.
     */
    static void answerChecked(MockProvider mock, RoutingContext ctx, RequestJournal.Entry entry, MockDialect dialect,
                              MockDialect countTokens, String model, String method) {
        JsonObject body = MockProvider.jsonBody(ctx);
        boolean counting = "countTokens".equals(method);
        String problem = body == null ? "Invalid JSON payload received. Unexpected token." : GeminiRequestCheck.problem(body, counting);
        boolean stream = "streamGenerateContent".equals(method);
        if (problem == null && stream && !"sse".equals(ctx.request().getParam("alt"))) {
            problem = "the mock streams generateContent as server-sent events only: add ?alt=sse";
        }
        if (problem != null) {
            MockResponder.answerAtOnce(ctx.request(), 400, Map.of(), GoogleErrors.body(400, "INVALID_ARGUMENT", problem));
            return;
        }
        mock.play(ctx, entry, counting ? countTokens : dialect, new MockCall(model, stream, false));
    }

    private void list(RoutingContext ctx) {
        mock.record(ctx);
        if (refusedKey(ctx.request())) {
            return;
        }
        JsonArray models = new JsonArray();
        MODELS.forEach(model -> models.add(describe(model)));
        MockResponder.answerAtOnce(ctx.request(), 200, Map.of(), new JsonObject().put("models", models));
    }

    private void describe(RoutingContext ctx) {
        mock.record(ctx);
        if (refusedKey(ctx.request())) {
            return;
        }
        String model = ctx.pathParam("param1");
        MockResponder.answerAtOnce(ctx.request(), MODELS.contains(model) ? 200 : 404, Map.of(), MODELS.contains(model)
                ? describe(model) : GoogleErrors.body(404, "NOT_FOUND", "models/" + model + " is not found for API version v1beta"));
    }

    private static JsonObject describe(String model) {
        return new JsonObject().put("name", "models/" + model).put("version", "001").put("displayName", model)
                .put("inputTokenLimit", 1_048_576).put("outputTokenLimit", 65_536)
                .put("supportedGenerationMethods", new JsonArray().add("generateContent").add("countTokens"));
    }

    /** Refuses a request without the right key as the Gemini API does; whether it did. */
    private boolean refusedKey(HttpServerRequest request) {
        String key = request.getHeader("x-goog-api-key");
        if (key == null) {
            key = request.getParam("key");
        }
        if (key == null || key.isEmpty()) {
            MockResponder.answerAtOnce(request, 403, Map.of(), GoogleErrors.body(403, "PERMISSION_DENIED",
                    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key "
                            + "or other form of API consumer identity to call this API."));
            return true;
        }
        if (!apiKey.equals(key)) {
            MockResponder.answerAtOnce(request, 400, Map.of(), GoogleErrors.withReason(GoogleErrors.body(400, "INVALID_ARGUMENT",
                    "API key not valid. Please pass a valid API key."), "API_KEY_INVALID", SERVICE));
            return true;
        }
        return false;
    }
}
