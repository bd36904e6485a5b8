package io.agentfuse.gateway.provider.responses;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.openai.OpenAiDialect;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * The OpenAI Responses API: {@code POST /v1/responses} at the gateway, {@code /responses} below
 * the base URL of a provider of {@code type: openai} (which includes the version,
 * {@code https://api.openai.com/v1}), {@code Authorization: Bearer KEY}. It is a dialect of its
 * own served by OpenAI's providers ({@link #providerType()} is {@code openai}): a Responses caller
 * routed to an OpenAI provider is forwarded as a Responses request — its body as sent with only
 * {@code model} replaced, {@code previous_response_id}, {@code store} and unknown fields
 * included — while a Chat Completions caller of the same provider still goes to
 * {@code /chat/completions}. Routed to a provider of another type, a Responses request is
 * translated, unless it needs what only OpenAI holds (see {@link ResponsesRequestParser}).
 *
 * <p>Answers are checked strictly ({@link ResponsesResponseCodec#read}): an upstream 200 that is
 * not a finished {@code response} object is a failed attempt, never relayed — except the
 * acceptance of a {@code background: true} request ({@code queued}), which is that request's answer.
 * A request that refers to stored state by id goes only to a provider that allows it
 * ({@link ResponsesStoredState}). Streams are named
 * SSE events ({@code response.created} … {@code response.completed}) without a {@code [DONE]}
 * line; a stream that ends before {@code response.completed} counts as cut. Errors are OpenAI's
 * {@code {"error": {...}}} bodies and, in a stream, an {@code error} event that carries the error
 * at top level and nested (what the OpenAI SDKs raise on). Response objects written for a
 * translated answer carry the API's defaults for the request settings they repeat
 * ({@code tools}, {@code temperature}, ...), not the caller's.
 *
 * <p>Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class ResponsesDialect implements Dialect {

    /** The one instance. */
    public static final ResponsesDialect INSTANCE = new ResponsesDialect();

    private ResponsesDialect() {
    }

    @Override
    public String name() {
        return "responses";
    }

    @Override
    public String providerType() {
        return OpenAiDialect.INSTANCE.name();
    }

    @Override
    public String path() {
        return "/v1/responses";
    }

    @Override
    public String upstreamPath() {
        return "/responses";
    }

    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return path.startsWith("/v1/responses") || path.startsWith("/responses");
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return OpenAiDialect.INSTANCE.authHeaders(apiKey);
    }

    @Override
    public ChatRequest parseRequest(JsonObject body) {
        return ResponsesRequestParser.parse(body);
    }

    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return ResponsesRequestWriter.write(request, model);
    }

    /** Only the model changes: a Responses stream always reports usage in its last event. */
    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        return body.put("model", upstreamModel);
    }

    /** The conversation of a Responses body is its {@code input} and {@code instructions}. */
    @Override
    public JsonObject withConversation(JsonObject body, JsonObject rewritten) {
        body.put("input", rewritten.getValue("input"));
        if (rewritten.containsKey("instructions")) {
            body.put("instructions", rewritten.getValue("instructions"));
        } else {
            body.remove("instructions");
        }
        return body;
    }

    /** A finished {@code response}, or a {@code background: true} request's acceptance (queued), which is relayed as is. */
    @Override
    public JsonObject checkAnswer(Buffer body) {
        JsonObject answer = AnswerShape.object(body);
        if (!ResponsesResponseCodec.isAcceptedInBackground(answer)) {
            ResponsesResponseCodec.read(answer);
        }
        return answer;
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return ResponsesResponseCodec.read(body);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return ResponsesResponseCodec.write(response, null);
    }

    /** Calls of the caller's flattened namespace functions name their namespace again. */
    @Override
    public JsonObject writeResponse(ChatResponse response, ChatRequest request) {
        return ResponsesResponseCodec.write(response, null, ToolNamespaces.of(request.tools()));
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return ResponsesResponseCodec.usage(responseBody.getValue("usage") instanceof JsonObject usage ? usage : null);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return new ResponsesStreamDecoder();
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return new ResponsesStreamEncoder(null, clock.epochMillis() / 1000);
    }

    /** Calls of the caller's flattened namespace functions name their namespace again. */
    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock, ChatRequest request) {
        return new ResponsesStreamEncoder(null, clock.epochMillis() / 1000, ToolNamespaces.of(request.tools()));
    }

    /**
     * Never sent: a Responses stream ends with {@code response.completed}, which carries the whole
     * answer, and its decoder reports a stream without it as cut rather than asking for this marker.
     */
    @Override
    public SseEvent endMarker() {
        throw new IllegalStateException("a Responses stream has no end marker; it ends with response.completed");
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        return OpenAiDialect.INSTANCE.streamErrorOutcome(type);
    }

    /** The Responses API answers errors as Chat Completions does. */
    @Override
    public String errorFamily() {
        return OpenAiDialect.INSTANCE.errorFamily();
    }

    @Override
    public String streamErrorType(Outcome outcome, String providerType) {
        return OpenAiDialect.INSTANCE.streamErrorType(outcome, providerType);
    }

    @Override
    public JsonObject refusalBody(int status, String message) {
        return OpenAiDialect.INSTANCE.refusalBody(status, message);
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return OpenAiDialect.INSTANCE.errorBody(type, message);
    }

    @Override
    public JsonObject errorBody(String type, String message, String code) {
        return OpenAiDialect.INSTANCE.errorBody(type, message, code);
    }

    /**
     * An {@code error} event numbered 0: a caller-side error event knows nothing of the stream it
     * ends (the stream encoder numbers the ones it writes itself).
     */
    @Override
    public SseEvent errorEvent(String type, String message) {
        return ResponsesStreamEncoder.errorEvent(type, message, 0);
    }

    @Override
    public String toString() {
        return name();
    }
}
