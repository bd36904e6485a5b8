package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ModelFamilies;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ForwardedBody;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.http.ValueMemo;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Optional;
import java.util.function.Function;

/**
 * The pipeline's first step: a request body in the caller's dialect becomes a
 * {@link ModelRequest}, or a 400 {@code invalid_request} (not JSON, a missing or bad field) or a
 * 404 {@code model_not_found} (a model the gateway does not serve: neither configured nor of a
 * built-in family, {@link io.agentfuse.config.AgentfuseRuntime#model}) — as a {@link GatewayException}.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * ModelRequest request = RequestParser.parse(Dialects.OPENAI, ctx.body().buffer(),
 *         ctx.request().getHeader(RequestParser.SUBAGENT_HEADER), runtime.config(), runtime::model);
 * }</pre>
 */
public final class RequestParser {

    /** The header that marks a subagent's request; its value is the subagent's id. */
    public static final String SUBAGENT_HEADER = "x-agentfuse-subagent";

    /**
     * The messages (and tools, system prompts) of recent long requests, by their bytes: an agent
     * resends them every turn. One per process, as a cache of a pure function may be: a sixteenth of
     * the heap's limit of their bytes (their decoded form takes about as much again), so that a small
     * heap keeps room for the requests, and a value per 512 of those bytes (a conversation's messages
     * average some 600), at least 8 192. It held 8 192 values and 16 MiB at most: sixty-four agents'
     * 150 KB conversations resent in turn (15 000 messages) were then decoded afresh on every request,
     * even on a 1 GiB gateway ({@code measure-cost.sh sessions 8}).
     */
    private static final long RECENT_BYTES = Math.max(ValueMemo.KEY_BYTES, Runtime.getRuntime().maxMemory() / 16);
    private static final ValueMemo RECENT_VALUES = new ValueMemo(
            (int) Math.min(1 << 20, Math.max(8_192, RECENT_BYTES / 512)), RECENT_BYTES);

    private RequestParser() {
    }

    /**
     * Parses and validates {@code body}.
     *
     * @param subagent the {@value #SUBAGENT_HEADER} header, or {@code null}; blank counts as absent
     * @param models   the model a name is served by, if any
     * @throws GatewayException with {@link GatewayError#INVALID_REQUEST} or {@link GatewayError#MODEL_NOT_FOUND}
     */
    public static ModelRequest parse(Dialect dialect, Buffer body, String subagent, AgentfuseConfig config,
                                     Function<String, Optional<ModelConfig>> models) {
        ChatRequest chat;
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        try {
            JsonObject json = json(body, spans);
            checkMessageCount(json, config.server().limits().maxMessages());
            chat = dialect.parseRequest(json);
        } catch (InvalidRequestException invalid) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, invalid.getMessage());
        }
        ModelConfig model = models.apply(chat.model()).orElseThrow(() -> notServed(chat.model(), config));
        String id = subagent == null || subagent.isBlank() ? null : subagent.trim();
        return new ModelRequest(chat, model, id, null, ForwardedBody.of(body, spans));
    }

    private static JsonObject json(Buffer body, StrictJson.FieldSpans spans) {
        if (body == null || body.length() == 0) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the request body is empty; expected a JSON object");
        }
        Object value;
        try {
            value = StrictJson.decode(body, spans, RECENT_VALUES);
        } catch (DecodeException e) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the request body is not valid JSON: "
                    + firstLine(e.getMessage()));
        }
        if (value instanceof JsonObject object) {
            return object;
        }
        throw new GatewayException(GatewayError.INVALID_REQUEST, "the request body must be a JSON object");
    }

    /**
     * {@code server.maxMessages}, checked before the conversation is read item by item: the
     * {@code messages} of Chat Completions and Messages, the {@code input} items of Responses, the
     * {@code contents} of Gemini's body.
     */
    private static void checkMessageCount(JsonObject body, int maxMessages) {
        Object listed = body.getValue("messages") != null ? body.getValue("messages") : body.getValue("contents");
        if (listed instanceof JsonArray messages && messages.size() > maxMessages) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the request has " + messages.size()
                    + " messages, more than " + maxMessages + " (server.maxMessages)");
        }
        if (body.getValue("input") instanceof JsonArray items && items.size() > maxMessages) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "the request has " + items.size()
                    + " input items, more than " + maxMessages + " (server.maxMessages)");
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    /**
     * The error for a request of a model that {@code config} does not serve: which models it
     * configures, and for a family name why it is not served without an entry (the bound).
     */
    public static GatewayException notServed(String model, AgentfuseConfig config) {
        String configured = "; configured models: " + String.join(", ", config.models().keySet());
        if (model.length() > ModelFamilies.LONGEST_NAME) {
            // Not echoed whole: the caller sent it, and a name of megabytes would make an answer of megabytes.
            return new GatewayException(GatewayError.MODEL_NOT_FOUND, "model " + AnswerShape.excerpt(model) + " ("
                    + model.length() + " characters) is not configured, and no name of more than "
                    + ModelFamilies.LONGEST_NAME + " characters is a built-in family's" + configured);
        }
        if (ModelFamilies.providerOf(model).isPresent()) {
            return new GatewayException(GatewayError.MODEL_NOT_FOUND, "model '" + model + "' is not configured, and "
                    + ConfigDefaults.UNCONFIGURED_FAMILY_MODELS + " models of the built-in families without an entry"
                    + " are in use already (the most served at once; one unused for an hour gives up its place);"
                    + " add it under models:" + configured);
        }
        return new GatewayException(GatewayError.MODEL_NOT_FOUND, "model '" + model + "' is not configured" + configured);
    }
}
