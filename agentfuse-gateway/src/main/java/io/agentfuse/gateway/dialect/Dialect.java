package io.agentfuse.gateway.dialect;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.gateway.sse.EventFraming;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.function.Consumer;

/**
 * A provider dialect: everything the gateway knows about one LLM API, to speak it to callers and
 * to providers — its paths, its authentication and version headers, its request and response
 * codecs, its stream decoder and encoder, what a well-formed answer looks like, and how its
 * errors are written and classified ({@link DialectErrors}). The gateway asks the dialect and
 * never branches on which one it is. Each implementation lives in a package of its own under
 * {@code io.agentfuse.gateway.provider} and is registered in one line of
 * {@code io.agentfuse.gateway.provider.Dialects}.
 *
 * <p>Implementations are stateless singletons (compare them with {@code ==}) and thread-safe; the
 * stream decoders and encoders they hand out are per stream.
 *
 * <pre>{@code
 * Dialect dialect = Dialects.forPath(request.path()).orElseThrow();
 * ChatRequest parsed = dialect.parseRequest(body);
 * JsonObject error = dialect.errorBody("circuit_open", "every model of the chain is open");
 * }</pre>
 */
public interface Dialect extends DialectErrors {

    /** The dialect's short name ({@code openai}, {@code anthropic}, {@code responses}), a metrics tag. */
    String name();

    /**
     * The provider {@code type} (in the config) whose providers speak this dialect; by default
     * {@link #name()}. One type may speak several dialects — an {@code openai} provider serves Chat
     * Completions and the Responses API — and then the dialect named like the type is the one its
     * callers of other dialects are translated to.
     */
    default String providerType() {
        return name();
    }

    // ---- paths and headers ----

    /** The gateway path that speaks this dialect to callers ({@code /v1/chat/completions}). */
    String path();

    /** The path of the chat endpoint, appended to a provider's configured base URL. */
    String upstreamPath();

    /**
     * The path (and query) of the chat endpoint for {@code model} of {@code provider}, complete or
     * {@code stream}ed, appended to the provider's base URL: {@link #upstreamPath()} by default, for
     * APIs that name the model in the body. Bedrock ({@code /model/{id}/converse-stream}), Gemini and
     * Vertex AI ({@code models/{m}:streamGenerateContent?alt=sse}) name it in the path; Azure adds
     * {@code ?api-version=}.
     */
    default String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return upstreamPath();
    }

    /**
     * Whether this dialect is the one to speak to a provider of its type for {@code upstreamModel}:
     * always, by default; Vertex AI serves Claude models in Anthropic's wire format and the others in
     * Gemini's.
     */
    default boolean serves(String upstreamModel) {
        return true;
    }

    /**
     * Whether a caller on {@code path} with {@code headers} speaks this dialect — also for paths
     * the gateway does not serve, so that even a 404 is answered in the caller's dialect.
     */
    boolean spokenBy(String path, MultiMap headers);

    /** The headers that authenticate the gateway's own {@code apiKey} to a provider; empty for no key. */
    Map<String, String> authHeaders(String apiKey);

    /**
     * How the gateway authenticates to {@code provider}, made once per configured provider: by default
     * the fixed headers of its {@code apiKey} ({@link #authHeaders}). Every dialect of one provider
     * type authenticates alike, so any of them may make it.
     *
     * @throws IllegalArgumentException when the provider's credentials cannot be used (a credentials file that is not one)
     */
    default UpstreamAuth upstreamAuth(ProviderConfig provider) {
        return UpstreamAuth.fixed(authHeaders(provider.apiKey()), UpstreamAuth.Credential.apiKey(provider.name()));
    }

    /**
     * Headers every upstream request carries unless the caller's forwarded ones replace them (API
     * version); none by default.
     */
    default Map<String, String> defaultHeaders() {
        return Map.of();
    }

    /** The caller's headers passed on to a provider of this dialect (never credentials); none by default. */
    default Map<String, String> forwardedHeaders(MultiMap callerHeaders) {
        return Map.of();
    }

    // ---- requests ----

    /**
     * Parses and validates a request body of this dialect. Fields the dialect does not know are
     * kept (they go upstream unchanged within the dialect) and listed as untranslatable.
     *
     * @throws InvalidRequestException naming the first bad field
     */
    ChatRequest parseRequest(JsonObject body);

    /**
     * Whether a provider of this dialect continues its answer from a trailing assistant message of
     * {@code request} (a prefill), as Anthropic's Messages API does. A stream broken after its first
     * byte is continued with the text sent as that message alone when it does, and else with a short
     * user turn asking to continue after it ({@link ContinuationRequest}). No by default.
     */
    default boolean continuesPrefilledAnswer(ChatRequest request) {
        return false;
    }

    /**
     * Writes {@code request} as a body of this dialect for {@code model}, ignoring
     * {@link ChatRequest#untranslatable()} (see {@link DialectTranslator} for the checked route).
     *
     * @throws UntranslatableException when part of the request cannot be written in this dialect
     */
    JsonObject writeRequest(ChatRequest request, String model);

    /**
     * {@link #writeRequest(ChatRequest, String)} for a model of {@code contextWindow} tokens, for a
     * dialect whose provider takes more of something from a model of a larger window (Anthropic: images
     * and document pages). The default ignores the window.
     *
     * @throws UntranslatableException when part of the request cannot be written in this dialect
     */
    default JsonObject writeRequest(ChatRequest request, String model, long contextWindow) {
        return writeRequest(request, model);
    }

    /**
     * The caller's own body, of this dialect, made ready for a provider of this dialect: the model
     * replaced by {@code upstreamModel} and whatever the gateway needs added (OpenAI: usage in a stream).
     * {@code body} is a shallow copy of the caller's body: replace its top-level fields and return
     * it, but never change a nested value in place (copy that value first), since it is shared with
     * the request as received.
     */
    JsonObject sameDialectRequest(JsonObject body, String upstreamModel, boolean stream);

    /**
     * The caller's {@code body} with its conversation replaced by that of {@code rewritten}, a
     * body this dialect's {@link #writeRequest} wrote (after compaction or snipping); every other
     * field stays as sent. {@code body} is the caller's copy and may be changed and returned. By
     * default the conversation is {@code messages} and {@code system}, as in Chat Completions and
     * Messages.
     */
    default JsonObject withConversation(JsonObject body, JsonObject rewritten) {
        body.put("messages", rewritten.getValue("messages"));
        if (rewritten.containsKey("system")) {
            body.put("system", rewritten.getValue("system"));
        } else {
            body.remove("system");
        }
        return body;
    }

    // ---- complete answers ----

    /**
     * The upstream's complete 2xx body as JSON, if it is a well-formed answer of this dialect.
     *
     * @throws MalformedAnswerException saying what is wrong (empty, not JSON, another shape, a field of the wrong type)
     */
    JsonObject checkAnswer(Buffer body);

    /** Reads a complete response body of this dialect, already checked; {@code clock} stamps dialects that send no time. */
    ChatResponse parseResponse(JsonObject body, Clock clock);

    /**
     * Writes {@code response} as a complete response body of this dialect.
     *
     * @throws UntranslatableException when part of the answer cannot be written in this dialect
     */
    JsonObject writeResponse(ChatResponse response);

    /**
     * Writes {@code response} as a complete response body of this dialect, for the caller who sent
     * {@code request} (a dialect may name things as that caller did); by default {@link #writeResponse(ChatResponse)}.
     *
     * @throws UntranslatableException when part of the answer cannot be written in this dialect
     */
    default JsonObject writeResponse(ChatResponse response, ChatRequest request) {
        return writeResponse(response);
    }

    /** The tokens reported in a complete response body of this dialect ({@link Usage#ZERO} if none). */
    Usage usageOf(JsonObject responseBody);

    /**
     * A shortcut for {@code usageOf(checkAnswer(body))} that may not build the body's tree: the
     * tokens reported in {@code body} when it is plainly a well-formed answer of this dialect, or
     * {@code null} when that cannot be told so cheaply — then {@link #checkAnswer} decides (and
     * explains). Never accepts a body {@code checkAnswer} refuses. Default: always {@code null}.
     */
    default Usage usageIfWellFormed(Buffer body) {
        return null;
    }

    // ---- streams ----

    /** A new decoder for one upstream stream of this dialect. */
    StreamDecoder streamDecoder();

    /** The media type a provider of this dialect streams in, asked for in {@code Accept}: {@code text/event-stream} by default. */
    default String streamMediaType() {
        return "text/event-stream";
    }

    /**
     * A new framing of one upstream stream's bytes into the events its {@link #streamDecoder()}
     * reads, handed to {@code sink}: server-sent events by default; AWS's binary event stream for Bedrock.
     */
    default EventFraming eventFraming(Consumer<SseEvent> sink, int maxEventBytes) {
        return new SseParser(sink, maxEventBytes);
    }

    /**
     * A new encoder for one client stream of this dialect.
     *
     * @param includeUsage whether the caller asked for usage in the stream (dialects that always send it ignore this)
     * @param clock        stamps dialects that put a time on their events
     */
    StreamEncoder streamEncoder(boolean includeUsage, Clock clock);

    /** A new encoder for one client stream of this dialect, for the caller who sent {@code request}. */
    default StreamEncoder streamEncoder(boolean includeUsage, Clock clock, ChatRequest request) {
        return streamEncoder(includeUsage, clock);
    }

    /** The event that ends a complete stream ({@code data: [DONE]}, {@code message_stop}). */
    SseEvent endMarker();
}
