package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes OpenAI {@code chat.completion} objects. Reading is lenient (an upstream that
 * omits a field still gives an answer): only the first choice is read, because a request that
 * asked for several is never translated. Stateless and thread-safe.
 *
 * <pre>{@code
 * ChatResponse answer = OpenAiResponseCodec.read(upstreamBody);
 * JsonObject forClient = AnthropicResponseCodec.write(answer);
 * }</pre>
 */
public final class OpenAiResponseCodec {

    private OpenAiResponseCodec() {
    }

    /**
     * {@code body}, if it is a well-formed {@code chat.completion}: at least one choice, each with a
     * message whose content, refusal and tool calls have their types, and numeric usage — the field
     * list {@link OpenAiShapes#ANSWER}, which the one-pass {@link OpenAiAnswerScan} reads too.
     *
     * @throws MalformedAnswerException naming the first field that is missing or of the wrong type
     */
    public static JsonObject check(JsonObject body) {
        return AnswerShape.check(body, OpenAiShapes.ANSWER);
    }

    /** The neutral form of a {@code chat.completion} body, {@linkplain #check checked} before. */
    public static ChatResponse read(JsonObject body) {
        List<ContentPart> content = new ArrayList<>();
        String finishReason = null;
        JsonArray choices = body.getJsonArray("choices", new JsonArray());
        if (!choices.isEmpty()) {
            JsonObject choice = choices.getJsonObject(0);
            finishReason = choice.getString("finish_reason");
            JsonObject message = choice.getJsonObject("message", new JsonObject());
            for (String field : new String[] {"content", "refusal"}) {
                String text = message.getString(field);
                if (text != null && !text.isEmpty()) {
                    content.add(new ContentPart.Text(text));
                }
            }
            JsonArray calls = message.getJsonArray("tool_calls", new JsonArray());
            for (int i = 0; i < calls.size(); i++) {
                JsonObject call = calls.getJsonObject(i);
                JsonObject function = call.getJsonObject("function", new JsonObject());
                // An id or arguments given as null (the shape allows it) are read as absent, as the stream reads them.
                content.add(new ContentPart.ToolCall(call.getValue("id") instanceof String id ? id : "call_" + i,
                        function.getString("name", ""),
                        function.getValue("arguments") instanceof String arguments ? arguments : ""));
            }
        }
        return new ChatResponse(body.getString("id", ""), body.getString("model", ""), body.getLong("created", 0L),
                content, FinishReason.fromOpenAi(finishReason), null, usage(body.getJsonObject("usage")));
    }

    /** The {@code chat.completion} body of {@code response}. */
    public static JsonObject write(ChatResponse response) {
        JsonObject message = OpenAiRequestWriter.assistantMessage(response.content()).put("refusal", null);
        return new JsonObject()
                .put("id", response.id())
                .put("object", "chat.completion")
                .put("created", response.created())
                .put("model", response.model())
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
                        .put("logprobs", null).put("finish_reason", response.finishReason().openAi())))
                .put("usage", usageJson(response.usage()));
    }

    /**
     * The usage of an OpenAI {@code usage} object ({@linkplain #check checked}); {@link Usage#ZERO} when
     * absent, a count absent or null read as 0; its {@code prompt_tokens_details.cached_tokens} are the
     * prompt's tokens read from the cache.
     */
    public static Usage usage(JsonObject usage) {
        if (usage == null) {
            return Usage.ZERO;
        }
        long cached = usage.getValue("prompt_tokens_details") instanceof JsonObject details
                ? count(details, "cached_tokens") : 0;
        return usage(count(usage, "prompt_tokens"), count(usage, "completion_tokens"), cached);
    }

    /**
     * The usage of {@code promptTokens} in, {@code cachedTokens} of them read from the cache, and
     * {@code completionTokens} out: the one reading of the tree and of the scans.
     */
    static Usage usage(long promptTokens, long completionTokens, long cachedTokens) {
        return Usage.of(promptTokens, completionTokens, Usage.cached(cachedTokens, 0, 0));
    }

    // A count given as null was read with an unboxing NullPointerException; the shape allows it, as "absent".
    private static long count(JsonObject usage, String field) {
        Object count = usage.getValue(field);
        return Usage.count((Number) count); // as every dialect reads a count: past a long's range, the largest
    }

    /**
     * The OpenAI {@code usage} object of {@code usage}, with {@code prompt_tokens_details.cached_tokens}
     * when some input was read from the cache (OpenAI's word has no cache writes: they are in
     * {@code prompt_tokens} alone).
     */
    public static JsonObject usageJson(Usage usage) {
        JsonObject json = new JsonObject().put("prompt_tokens", usage.inputTokens())
                .put("completion_tokens", usage.outputTokens()).put("total_tokens", usage.total());
        if (usage.cached().reads() > 0) {
            json.put("prompt_tokens_details", new JsonObject().put("cached_tokens", usage.cached().reads()));
        }
        return json;
    }
}
