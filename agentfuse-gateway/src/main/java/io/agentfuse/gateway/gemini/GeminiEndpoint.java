package io.agentfuse.gateway.gemini;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.models.TokenCountHandler;
import io.agentfuse.gateway.pipeline.ChatPipeline;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The Gemini API's model methods for callers (Gemini CLI, the Google GenAI SDKs), on the paths
 * {@link GeminiMethodPath} reads, behind a body handler:
 * <ul>
 *   <li>{@code :generateContent} and {@code :streamGenerateContent?alt=sse} run the model pipeline of
 *       every other endpoint — chains, breakers, budgets, client keys, {@code x-agentfuse-*} headers —
 *       with the model of the path ({@link PathModelBody}); errors in Google's shape. A stream without
 *       {@code alt=sse} (which Google sends as one JSON array, written as it grows) is refused with 400
 *       {@code INVALID_ARGUMENT}: every Google SDK and Gemini CLI ask for SSE.</li>
 *   <li>{@code :countTokens} is answered by the gateway's own counter, as {@code /v1/messages/count_tokens}
 *       is ({@link TokenCountHandler#count}): {@code {"totalTokens": N}}, for a body of {@code contents}
 *       or of a whole {@code generateContentRequest}.</li>
 * </ul>
 *
 * <p>Thread-safe: one per gateway.
 *
 * <pre>{@code
 * router.postWithRegex(GeminiMethodPath.ROUTE).handler(BodyHandler.create(false)).handler(endpoint::handle);
 * }</pre>
 */
public final class GeminiEndpoint {

    private final ChatPipeline pipeline;
    private final Supplier<AgentfuseConfig> config;

    /**
     * @param pipeline the model pipeline the generate methods run through
     * @param config   the configuration in force, read on every token count
     */
    public GeminiEndpoint(ChatPipeline pipeline, Supplier<AgentfuseConfig> config) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Serves a {@code POST} on a model method whose body has been read. */
    public void handle(RoutingContext ctx) {
        GeminiMethodPath target = GeminiMethodPath.of(ctx).orElse(null);
        if (target == null) {
            ctx.next(); // the route's pattern and the path's reading disagree: the router's 404 answers
            return;
        }
        Buffer body = ctx.body().buffer();
        switch (target.method()) {
            case GENERATE_CONTENT -> pipeline.serve(Dialects.GEMINI, ctx.request(), PathModelBody.of(body, target.model(), false));
            case STREAM_GENERATE_CONTENT -> {
                if (!"sse".equals(ctx.request().getParam("alt"))) {
                    refuse(ctx, new GatewayException(GatewayError.INVALID_REQUEST, ":streamGenerateContent is served as"
                            + " server-sent events only: add ?alt=sse to the URL (as the Google GenAI SDKs and Gemini CLI do)"));
                    return;
                }
                pipeline.serve(Dialects.GEMINI, ctx.request(), PathModelBody.of(body, target.model(), true));
            }
            case COUNT_TOKENS -> countTokens(ctx, target.model(), body);
        }
    }

    private void countTokens(RoutingContext ctx, String model, Buffer body) {
        ChatRequest request;
        try {
            request = countedRequest(body, model);
        } catch (GatewayException invalid) {
            refuse(ctx, invalid);
            return;
        }
        TokenCountHandler.count(ctx.vertx(), config.get(), request)
                .onSuccess(tokens -> ctx.response().putHeader("content-type", "application/json")
                        .end(new JsonObject().put("totalTokens", tokens).encode()))
                .onFailure(error -> refuse(ctx, TokenCountHandler.countFailure(error, "the contents could not be counted: ")));
    }

    /** A {@code countTokens} body as a request: its {@code generateContentRequest}, else its {@code contents}. */
    static ChatRequest countedRequest(Buffer body, String model) {
        JsonObject json = TokenCountHandler.jsonObject(body);
        Object whole = json.getValue("generateContentRequest");
        if (whole != null && !(whole instanceof JsonObject)) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "generateContentRequest must be an object");
        }
        JsonObject counted = whole instanceof JsonObject request ? ChatRequest.shallowCopy(request) : json;
        counted.remove("generateContentRequest");
        counted.remove(GeminiDialect.MODEL_FIELD); // the path names the model
        try {
            return GeminiDialect.INSTANCE.parseRequest(counted, model, false);
        } catch (InvalidRequestException invalid) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, invalid.getMessage());
        }
    }

    private static void refuse(RoutingContext ctx, GatewayException failure) {
        if (!ctx.response().ended() && !ctx.response().closed()) {
            GatewayErrors.respond(ctx.response(), Dialects.GEMINI, failure);
        }
    }
}
