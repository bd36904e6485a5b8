package io.agentfuse.gateway.dialect;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.dialect.anthropic.AnthropicRequestParser;
import io.agentfuse.gateway.dialect.anthropic.AnthropicRequestWriter;
import io.agentfuse.gateway.dialect.anthropic.AnthropicResponseCodec;
import io.agentfuse.gateway.dialect.anthropic.AnthropicStreamDecoder;
import io.agentfuse.gateway.dialect.anthropic.AnthropicStreamEncoder;
import io.agentfuse.gateway.dialect.openai.OpenAiRequestParser;
import io.agentfuse.gateway.dialect.openai.OpenAiRequestWriter;
import io.agentfuse.gateway.dialect.openai.OpenAiResponseCodec;
import io.agentfuse.gateway.dialect.openai.OpenAiStreamDecoder;
import io.agentfuse.gateway.dialect.openai.OpenAiStreamEncoder;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * The two LLM API dialects the gateway speaks, to callers and to providers: OpenAI Chat
 * Completions and Anthropic Messages. Each constant reads and writes its requests, responses,
 * stream events and error bodies; {@link DialectTranslator} combines them to cross over.
 *
 * <p>Stateless and thread-safe; the stream decoders and encoders it hands out are per stream.
 *
 * <pre>{@code
 * Dialect dialect = Dialect.forPath(request.path()).orElseThrow();
 * ChatRequest parsed = dialect.parseRequest(body);
 * JsonObject error = dialect.errorBody("circuit_open", "every model of the chain is open");
 * }</pre>
 */
public enum Dialect {

    /** OpenAI Chat Completions, {@code POST /v1/chat/completions}. */
    OPENAI("/v1/chat/completions"),
    /** Anthropic Messages, {@code POST /v1/messages}. */
    ANTHROPIC("/v1/messages");

    private final String path;

    Dialect(String path) {
        this.path = path;
    }

    /** The gateway path that speaks this dialect. */
    public String path() {
        return path;
    }

    /** The dialect spoken on {@code path}, if any. */
    public static Optional<Dialect> forPath(String path) {
        for (Dialect dialect : values()) {
            if (dialect.path.equals(path)) {
                return Optional.of(dialect);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses and validates a request body of this dialect.
     *
     * @throws InvalidRequestException naming the first bad field
     */
    public ChatRequest parseRequest(JsonObject body) {
        return this == OPENAI ? OpenAiRequestParser.parse(body) : AnthropicRequestParser.parse(body);
    }

    /**
     * Writes {@code request} as a body of this dialect for {@code model}, ignoring
     * {@link ChatRequest#untranslatable()} (see {@link DialectTranslator} for the checked route).
     *
     * @throws UntranslatableException when part of the request cannot be written in this dialect
     */
    public JsonObject writeRequest(ChatRequest request, String model) {
        return this == OPENAI ? OpenAiRequestWriter.write(request, model) : AnthropicRequestWriter.write(request, model);
    }

    /** Reads a complete response body of this dialect; {@code clock} stamps dialects that send no time. */
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return this == OPENAI ? OpenAiResponseCodec.read(body)
                : AnthropicResponseCodec.read(body, clock.epochMillis() / 1000);
    }

    /**
     * Writes {@code response} as a complete response body of this dialect.
     *
     * @throws UntranslatableException when a tool call's arguments are not the JSON object Anthropic needs
     */
    public JsonObject writeResponse(ChatResponse response) {
        return this == OPENAI ? OpenAiResponseCodec.write(response) : AnthropicResponseCodec.write(response);
    }

    /** The tokens reported in a complete response body of this dialect ({@link Usage#ZERO} if none). */
    public Usage usageOf(JsonObject responseBody) {
        Object usage = responseBody.getValue("usage");
        JsonObject json = usage instanceof JsonObject object ? object : null;
        return this == OPENAI ? OpenAiResponseCodec.usage(json) : AnthropicResponseCodec.usage(json);
    }

    /** A new decoder for one upstream stream of this dialect. */
    public StreamDecoder streamDecoder() {
        return this == OPENAI ? new OpenAiStreamDecoder() : new AnthropicStreamDecoder();
    }

    /**
     * A new encoder for one client stream of this dialect.
     *
     * @param includeUsage for OpenAI, whether the caller asked for the usage chunk (Anthropic always has usage)
     * @param clock        stamps OpenAI's {@code created}
     */
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return this == OPENAI ? new OpenAiStreamEncoder(includeUsage, clock.epochMillis() / 1000)
                : new AnthropicStreamEncoder();
    }

    /**
     * An error body of this dialect: OpenAI {@code {"error": {"message", "type", "param": null, "code"}}}
     * (with {@code code} equal to {@code type}), Anthropic {@code {"type": "error", "error": {"type", "message"}}}.
     */
    public JsonObject errorBody(String type, String message) {
        JsonObject error = new JsonObject();
        if (this == OPENAI) {
            return error.put("error", new JsonObject().put("message", message).put("type", type)
                    .put("param", null).put("code", type));
        }
        return error.put("type", "error").put("error", new JsonObject().put("type", type).put("message", message));
    }

    /**
     * The same error as an SSE event that ends a stream: OpenAI {@code data: {"error": {...}}},
     * Anthropic {@code event: error}.
     */
    public SseEvent errorEvent(String type, String message) {
        String data = errorBody(type, message).encode();
        return this == OPENAI ? SseEvent.data(data) : SseEvent.named("error", data);
    }
}
