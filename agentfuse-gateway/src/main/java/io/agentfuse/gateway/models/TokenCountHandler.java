package io.agentfuse.gateway.models;

import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ModelFamilies;
import io.agentfuse.gateway.context.ConversationMapper;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.pipeline.RequestParser;
import io.agentfuse.gateway.server.SizedBodyReader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code POST /v1/messages/count_tokens}, Anthropic-compatible: the body of a Messages request
 * (without {@code max_tokens}) is answered {@code {"input_tokens": N}}.
 *
 * <p>N is the count the context ladder works with for that model before any provider reported a
 * conversation's tokens: its conversation (system prompt, messages, tool calls and results) measured by
 * {@link TokenCounter#forModel} for the model's upstream name, or for the name itself when it is not
 * configured. It stays that estimate even for a conversation whose earlier part a provider reported
 * (which the ladder counts by the report): a caller asks it before the call, often of a request it is
 * still writing, and one answer of this endpoint is the same whatever the gateway served before. Like the ladder it
 * counts the tools offered too, by their names, descriptions and schemas (as Anthropic's own
 * endpoint does). Counting runs on a worker thread, never the event loop; the
 * shared counters remember messages, so a conversation resent with one more turn costs the new
 * turn. A body that is not JSON, or not a valid Messages request, is answered 400
 * {@code invalid_request} in Anthropic's error shape. Thread-safe.
 *
 * <pre>{@code
 * new TokenCountHandler(runtime::config, config.server().maxBodySize()).mount(router, bodyReader);
 * }</pre>
 */
public final class TokenCountHandler {

    /** The path served. */
    public static final String PATH = "/v1/messages/count_tokens";

    private final Supplier<AgentfuseConfig> config;
    private final long maxBodySize;

    /**
     * @param config      the configuration in force, read on every request
     * @param maxBodySize the largest body accepted, in bytes ({@code server.maxBodySize})
     */
    public TokenCountHandler(Supplier<AgentfuseConfig> config, long maxBodySize) {
        this.config = Objects.requireNonNull(config, "config");
        this.maxBodySize = maxBodySize;
    }

    /** Serves {@code POST /v1/messages/count_tokens} on {@code router}, its bodies read by {@code bodies}. */
    public void mount(Router router, SizedBodyReader bodies) {
        bodies.reading(router.post(PATH))
                .handler(this::handle)
                .failureHandler(this::failed);
    }

    private void handle(RoutingContext ctx) {
        ChatRequest request;
        try {
            request = parse(ctx.body().buffer());
        } catch (GatewayException invalid) {
            GatewayErrors.respond(ctx.response(), Dialects.ANTHROPIC, invalid);
            return;
        }
        count(ctx.vertx(), config.get(), request)
                .onSuccess(tokens -> ctx.response().putHeader("content-type", "application/json")
                        .end(new JsonObject().put("input_tokens", tokens).encode()))
                .onFailure(error -> GatewayErrors.respond(ctx.response(), Dialects.ANTHROPIC,
                        countFailure(error, "the messages could not be counted: ")));
    }

    /**
     * The tokens of {@code request}'s conversation as the context ladder counts them for its model
     * (its upstream name under {@code config}, else the name itself; the tools offered included),
     * counted on a worker thread: the one count behind every dialect's token-counting endpoint. A model
     * the gateway does not serve (neither configured nor of a built-in family) fails with the 404
     * {@code model_not_found} its requests get, as a provider answers a count for a model it has not.
     */
    public static Future<Integer> count(Vertx vertx, AgentfuseConfig config, ChatRequest request) {
        Optional<ModelConfig> configured = config.model(request.model());
        if (configured.isEmpty() && ModelFamilies.providerOf(request.model()).isEmpty()) {
            return Future.failedFuture(RequestParser.notServed(request.model(), config)); // as the model's own request is answered
        }
        String model = configured.map(ModelConfig::upstreamModel).orElse(request.model());
        TokenCounter counter = TokenCounter.forModel(model);
        return vertx.executeBlocking(() -> counter.countConversation(ConversationMapper.toConversation(request)), false);
    }

    /** {@code error} of {@link #count} as the caller is answered: the gateway's own error as it is, else 400. */
    public static GatewayException countFailure(Throwable error, String prefix) {
        return error instanceof GatewayException refused ? refused
                : new GatewayException(GatewayError.INVALID_REQUEST, prefix + error.getMessage());
    }

    /**
     * A token count's body as a JSON object: its top level its own, free to change; the values under
     * it shared and unmodifiable.
     *
     * @throws GatewayException 400 {@code invalid_request} for an empty body, or one that is not a JSON object
     */
    public static JsonObject jsonObject(Buffer body) {
        Object value;
        try {
            // StrictJson's rules, as for the request this counts: what a Messages request refuses, a count refuses
            value = body == null || body.length() == 0 ? null : StrictJson.decode(body);
        } catch (DecodeException notJson) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the body must be a JSON object, and is not valid JSON: "
                    + notJson.getMessage());
        }
        if (value instanceof JsonObject object) {
            return ChatRequest.shallowCopy(object); // its own top level; the conversation is shared, not copied
        }
        throw new GatewayException(GatewayError.INVALID_REQUEST, "the body must be a JSON object");
    }

    /** The request, read as a Messages request; {@code max_tokens} is not part of a count's body. */
    static ChatRequest parse(Buffer body) {
        JsonObject json = jsonObject(body);
        if (!json.containsKey("max_tokens")) {
            json.put("max_tokens", 1);
        }
        try {
            return Dialects.ANTHROPIC.parseRequest(json);
        } catch (InvalidRequestException invalid) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, invalid.getMessage());
        }
    }

    private void failed(RoutingContext ctx) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        GatewayError error = ctx.statusCode() == 413 ? GatewayError.REQUEST_TOO_LARGE : GatewayError.INVALID_REQUEST;
        String message = ctx.statusCode() == 413
                ? "the request body is larger than " + maxBodySize + " bytes (server.maxBodySize)"
                : "the request could not be read";
        GatewayErrors.respond(ctx.response(), Dialects.ANTHROPIC, new GatewayException(error, message));
    }
}
