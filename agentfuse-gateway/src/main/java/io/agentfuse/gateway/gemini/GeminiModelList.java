package io.agentfuse.gateway.gemini;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.models.ModelListHandler;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code GET /v1beta/models} and {@code GET /v1beta/models/{model}} (also under {@code /v1/}, for a
 * client set to the API's {@code v1} version): the models under {@code models:}, in the order of
 * the file, in the Gemini API's {@code Model} shape — {@code name} {@code models/<model>},
 * {@code displayName}, {@code inputTokenLimit} (the model's {@code contextWindow}) and the methods the
 * gateway serves for it. A list pages with Google's {@code pageSize} (1–1000, default 50) and
 * {@code pageToken} (the {@code nextPageToken} of the page before). An unknown model is a 404
 * {@code NOT_FOUND}. Under {@code /v1/} the paths stay OpenAI's ({@code GET /v1/models}) unless the
 * request carries {@code x-goog-api-key}. The configuration is read per request. Thread-safe.
 *
 * <pre>{@code
 * new GeminiModelList(runtime::config).mount(router);
 * }</pre>
 */
public final class GeminiModelList {

    /** The list's path. */
    public static final String PATH = "/v1beta/models";

    private static final int DEFAULT_PAGE_SIZE = 50;
    private static final int MAX_PAGE_SIZE = 1000;
    private static final String MODEL_PREFIX = "models/";
    private static final JsonArray METHODS = new JsonArray().add("generateContent").add("streamGenerateContent")
            .add("countTokens");

    private final Supplier<AgentfuseConfig> config;

    /** @param config the configuration in force, read on every request */
    public GeminiModelList(Supplier<AgentfuseConfig> config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Serves the list and each model on {@code router}; mount it before {@code GET /v1/models}, which
     * it leaves to the next handler unless the request carries {@code x-goog-api-key}.
     */
    public void mount(Router router) {
        router.get(PATH).handler(this::list);
        router.getWithRegex("^/v1beta/models/[^:]+$").handler(this::one);
        router.get("/v1/models").handler(ctx -> forGoogleCaller(ctx, this::list));
        router.getWithRegex("^/v1/models/[^:]+$").handler(ctx -> forGoogleCaller(ctx, this::one));
    }

    /** {@code /v1/models...} is OpenAI's unless the caller sends Google's key header. */
    private static void forGoogleCaller(RoutingContext ctx, Handler<RoutingContext> handler) {
        if (ctx.request().headers().contains("x-goog-api-key")) {
            handler.handle(ctx);
        } else {
            ctx.next();
        }
    }

    private void list(RoutingContext ctx) {
        List<ModelConfig> models = List.copyOf(config.get().models().values());
        try {
            int size = pageSize(ctx.request().getParam("pageSize"));
            int from = start(models, ctx.request().getParam("pageToken"));
            int to = Math.min(models.size(), from + size);
            JsonArray page = new JsonArray();
            models.subList(from, to).forEach(model -> page.add(model(model)));
            JsonObject body = new JsonObject().put("models", page);
            if (to < models.size()) {
                body.put("nextPageToken", models.get(to).name());
            }
            json(ctx, body);
        } catch (GatewayException invalid) {
            GatewayErrors.respond(ctx.response(), Dialects.GEMINI, invalid);
        }
    }

    private void one(RoutingContext ctx) {
        String path = GeminiMethodPath.routed(ctx);
        String name = GeminiMethodPath.decoded(path.substring(path.indexOf(MODEL_PREFIX) + MODEL_PREFIX.length()));
        config.get().model(name).ifPresentOrElse(model -> json(ctx, model(model)),
                () -> GatewayErrors.respond(ctx.response(), Dialects.GEMINI, new GatewayException(
                        GatewayError.MODEL_NOT_FOUND, "model " + AnswerShape.quoted(name) + " is not configured at this gateway; "
                        + "GET " + PATH + " lists those that are")));
    }

    private static JsonObject model(ModelConfig model) {
        return new JsonObject().put("name", MODEL_PREFIX + model.name()).put("baseModelId", model.name())
                .put("version", "agentfuse").put("displayName", model.name())
                .put("description", "served by provider " + model.provider() + " as " + model.upstreamModel())
                .put("inputTokenLimit", model.contextWindow()).put("supportedGenerationMethods", METHODS.copy());
    }

    private static int pageSize(String value) {
        return ModelListHandler.wholeNumber("pageSize", value, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    }

    private static int start(List<ModelConfig> models, String pageToken) {
        if (pageToken == null || pageToken.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < models.size(); i++) {
            if (models.get(i).name().equals(pageToken)) {
                return i;
            }
        }
        throw new GatewayException(GatewayError.INVALID_REQUEST, "pageToken " + AnswerShape.quoted(pageToken)
                + " is not a page of this gateway's models (they changed, or the token is not one it gave)");
    }

    private static void json(RoutingContext ctx, JsonObject body) {
        ctx.response().putHeader("content-type", "application/json").end(body.encode());
    }
}
