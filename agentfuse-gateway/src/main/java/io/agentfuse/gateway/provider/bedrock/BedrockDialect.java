package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.EventFraming;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Amazon Bedrock's Converse API, spoken to {@code bedrock} providers: {@code POST /model/{modelId}/converse}
 * and {@code /model/{modelId}/converse-stream} below the regional endpoint
 * ({@code https://bedrock-runtime.{region}.amazonaws.com}), the model id in the path
 * ({@link #upstreamPath(String, boolean)}). Requests are signed with AWS SigV4 (not by this class: the
 * signature covers the final body, see the provider package), or carry a Bedrock API key as
 * {@code Authorization: Bearer}. A stream is AWS's binary event stream, framed by
 * {@link BedrockEventStreamReader} and decoded by {@link BedrockStreamDecoder}; errors are exceptions
 * named in {@code x-amzn-ErrorType} ({@link BedrockErrors}).
 *
 * <p>The gateway does not accept Bedrock's API from callers: {@link #spokenBy} is always false and
 * {@link #parseRequest} refuses. Stateless and thread-safe: use {@link #INSTANCE}.
 */
public final class BedrockDialect implements Dialect {

    /** The one instance. */
    public static final BedrockDialect INSTANCE = new BedrockDialect();

    /** The content type of a ConverseStream answer. */
    public static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private static final SseEvent MESSAGE_STOP = SseEvent.named("messageStop", "{\"stopReason\":\"end_turn\"}");

    private BedrockDialect() {
    }

    @Override
    public String name() {
        return "bedrock";
    }

    /** Bedrock's path prefix; the gateway serves no Bedrock endpoint. */
    @Override
    public String path() {
        return "/model";
    }

    /** The prefix of the upstream paths; {@link #upstreamPath(String, boolean)} gives the full one. */
    @Override
    public String upstreamPath() {
        return "/model";
    }

    /** The path of Converse ({@code stream}: ConverseStream) for {@code modelId}, encoded as the AWS SDK encodes it. */
    public String upstreamPath(String modelId, boolean stream) {
        String encoded = URLEncoder.encode(modelId, StandardCharsets.UTF_8).replace("+", "%20");
        return "/model/" + encoded + (stream ? "/converse-stream" : "/converse");
    }

    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return upstreamPath(model, stream);
    }

    @Override
    public boolean spokenBy(String path, MultiMap headers) {
        return false;
    }

    /** A Bedrock API key, sent as {@code Authorization: Bearer}; requests without one are SigV4-signed instead. */
    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return apiKey == null || apiKey.isEmpty() ? Map.of() : Map.of("authorization", "Bearer " + apiKey);
    }

    /** A Bedrock API key when {@code apiKey} is set, else SigV4 with the provider's static keys or the default chain. */
    @Override
    public UpstreamAuth upstreamAuth(ProviderConfig provider) {
        return BedrockAuth.of(provider);
    }

    /** @throws InvalidRequestException always: the gateway does not accept Bedrock's API */
    @Override
    public ChatRequest parseRequest(JsonObject body) {
        throw new InvalidRequestException(null, "the gateway does not accept Bedrock's Converse API from callers: "
                + "call it in the OpenAI, Anthropic, Responses or Gemini dialect");
    }

    /** The Converse body; {@code model} goes in the path ({@link #upstreamPath(String, boolean)}). */
    @Override
    public JsonObject writeRequest(ChatRequest request, String model) {
        return BedrockRequestWriter.write(request, model, 0);
    }

    /** The Converse body; a Claude model's images and document pages held to the limit of its window. */
    @Override
    public JsonObject writeRequest(ChatRequest request, String model, long contextWindow) {
        return BedrockRequestWriter.write(request, model, contextWindow);
    }

    @Override
    public JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream) {
        return body;
    }

    @Override
    public JsonObject checkAnswer(Buffer body) {
        return BedrockResponseCodec.check(AnswerShape.object(body));
    }

    @Override
    public ChatResponse parseResponse(JsonObject body, Clock clock) {
        return BedrockResponseCodec.read(body, clock.epochMillis() / 1000);
    }

    @Override
    public JsonObject writeResponse(ChatResponse response) {
        return BedrockResponseCodec.write(response);
    }

    @Override
    public Usage usageOf(JsonObject responseBody) {
        return BedrockResponseCodec.usage(responseBody.getValue("usage") instanceof JsonObject usage ? usage : null);
    }

    /** A decoder of the events a {@link BedrockEventStreamReader} reads from the stream's bytes. */
    @Override
    public StreamDecoder streamDecoder() {
        return new BedrockStreamDecoder();
    }

    @Override
    public String streamMediaType() {
        return EVENT_STREAM;
    }

    /** AWS's binary event stream, framed by the AWS SDK's decoder ({@link BedrockEventStreamReader}). */
    @Override
    public EventFraming eventFraming(Consumer<SseEvent> sink, int maxEventBytes) {
        return new BedrockEventStreamReader(sink, maxEventBytes);
    }

    @Override
    public StreamEncoder streamEncoder(boolean includeUsage, Clock clock) {
        return new BedrockStreamEncoder();
    }

    @Override
    public SseEvent endMarker() {
        return MESSAGE_STOP;
    }

    @Override
    public Outcome streamErrorOutcome(String type) {
        return BedrockErrors.streamErrorOutcome(type);
    }

    /** The outcome of a Bedrock error answer, by the exception {@code x-amzn-ErrorType} names ({@link BedrockErrors#outcome}). */
    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return BedrockErrors.outcome(status, headers.get("x-amzn-ErrorType"), body);
    }

    /** Bedrock's refusal of the model ID ({@link BedrockErrors#refusesModel}). */
    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        return BedrockErrors.refusesModel(status, headers.get("x-amzn-ErrorType"), body);
    }

    @Override
    public JsonObject errorBody(String type, String message) {
        return new JsonObject().put("__type", type).put("message", message);
    }

    @Override
    public SseEvent errorEvent(String type, String message) {
        return new BedrockStreamEncoder().encode(new StreamEvent.Error(type, message)).get(0);
    }

    @Override
    public String toString() {
        return name();
    }
}
