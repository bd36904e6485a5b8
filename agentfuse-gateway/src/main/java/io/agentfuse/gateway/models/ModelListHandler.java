package io.agentfuse.gateway.models;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code GET /v1/models}: the models the configuration reaches — those under {@code models:} and
 * the family models its fallbacks name — in the order of the file.
 *
 * <p>In OpenAI's list shape, {@code {"object": "list", "data": [{"id", "object": "model",
 * "created", "owned_by"}]}} ({@code owned_by} is the provider's name); in Anthropic's,
 * {@code {"data": [{"type": "model", "id", "display_name", "created_at"}], "has_more",
 * "first_id", "last_id"}}, when the request carries {@code anthropic-version}, with Anthropic's
 * paging parameters {@code limit} (1–1000, default 20), {@code after_id} and {@code before_id}.
 * {@code GET /v1/models/{model}} answers one of them in the same shape (the SDKs' {@code models.retrieve}),
 * and 404 {@code model_not_found} in the caller's dialect for a model the gateway does not serve.
 * The configuration is read per request, so a reload shows at once. Thread-safe.
 *
 * <pre>{@code
 * new ModelListHandler(runtime::config).mount(router);
 * }</pre>
 */
public final class ModelListHandler {

    /** The path served. */
    public static final String PATH = "/v1/models";

    private static final String ANTHROPIC_VERSION = "anthropic-version";
    private static final String CREATED_AT = "1970-01-01T00:00:00Z";
    private static final int DEFAULT_LIMIT = 20;
    private static final int MAX_LIMIT = 1000;

    private final Supplier<AgentfuseConfig> config;

    /** @param config the configuration in force, read on every request */
    public ModelListHandler(Supplier<AgentfuseConfig> config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Serves {@code GET /v1/models} and {@code GET /v1/models/{model}} on {@code router}. */
    public void mount(Router router) {
        router.get(PATH).handler(this::handle);
        router.getWithRegex("^" + PATH + "/(.+)$").handler(this::one);
    }

    private void one(RoutingContext ctx) {
        String name = ctx.pathParam("param0");
        boolean anthropic = ctx.request().getHeader(ANTHROPIC_VERSION) != null;
        config.get().model(name).ifPresentOrElse(
                model -> json(ctx, anthropic ? anthropicModel(model.name()) : openAiModel(model)),
                () -> GatewayErrors.respond(ctx.response(), anthropic ? Dialects.ANTHROPIC : Dialects.OPENAI,
                        new GatewayException(GatewayError.MODEL_NOT_FOUND, "model " + AnswerShape.quoted(name)
                                + " is not configured at this gateway; GET " + PATH + " lists those that are")));
    }

    private void handle(RoutingContext ctx) {
        List<ModelConfig> models = List.copyOf(config.get().models().values());
        if (ctx.request().getHeader(ANTHROPIC_VERSION) == null) {
            json(ctx, openAiList(models));
            return;
        }
        try {
            json(ctx, anthropicPage(models, ctx));
        } catch (GatewayException invalid) {
            GatewayErrors.respond(ctx.response(), Dialects.ANTHROPIC, invalid);
        }
    }

    private static JsonObject openAiList(List<ModelConfig> models) {
        JsonArray data = new JsonArray();
        models.forEach(model -> data.add(openAiModel(model)));
        return new JsonObject().put("object", "list").put("data", data);
    }

    private static JsonObject openAiModel(ModelConfig model) {
        return new JsonObject().put("id", model.name()).put("object", "model").put("created", 0).put("owned_by", model.provider());
    }

    private static JsonObject anthropicModel(String name) {
        return new JsonObject().put("type", "model").put("id", name).put("display_name", name).put("created_at", CREATED_AT);
    }

    private static JsonObject anthropicPage(List<ModelConfig> models, RoutingContext ctx) {
        int limit = limit(ctx.request().getParam("limit"));
        List<String> names = new ArrayList<>(models.stream().map(ModelConfig::name).toList());
        int from = 0;
        int to = names.size();
        String afterId = ctx.request().getParam("after_id");
        String beforeId = ctx.request().getParam("before_id");
        if (afterId != null) {
            from = indexOf(names, afterId, "after_id") + 1;
        }
        if (beforeId != null) {
            to = indexOf(names, beforeId, "before_id");
        }
        List<String> window = from >= to ? List.of() : names.subList(from, to);
        // before_id pages backwards: the models just before it; otherwise the first ones from the start.
        List<String> page = beforeId != null && afterId == null
                ? window.subList(Math.max(0, window.size() - limit), window.size())
                : window.subList(0, Math.min(limit, window.size()));
        boolean hasMore = page.size() < window.size();
        JsonArray data = new JsonArray();
        page.forEach(name -> data.add(anthropicModel(name)));
        return new JsonObject().put("data", data).put("has_more", hasMore)
                .put("first_id", page.isEmpty() ? null : page.get(0))
                .put("last_id", page.isEmpty() ? null : page.get(page.size() - 1));
    }

    private static int limit(String value) {
        return wholeNumber("limit", value, DEFAULT_LIMIT, MAX_LIMIT);
    }

    /**
     * A paging parameter {@code name} of a model list: {@code value} as a whole number from 1 to
     * {@code max}, {@code absent} when it is not given.
     *
     * @throws GatewayException 400 {@code invalid_request} naming the parameter and the value
     */
    public static int wholeNumber(String name, String value, int absent, int max) {
        if (value == null) {
            return absent;
        }
        try {
            int number = Integer.parseInt(value);
            if (number >= 1 && number <= max) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // answered below, with the value
        }
        throw new GatewayException(GatewayError.INVALID_REQUEST,
                name + " must be a whole number from 1 to " + max + ", but was " + AnswerShape.quoted(value));
    }

    private static int indexOf(List<String> names, String id, String param) {
        int index = names.indexOf(id);
        if (index < 0) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, param + " " + AnswerShape.quoted(id) + " is not a model of this gateway");
        }
        return index;
    }

    private static void json(RoutingContext ctx, JsonObject body) {
        ctx.response().putHeader("content-type", "application/json").end(body.encode());
    }
}
