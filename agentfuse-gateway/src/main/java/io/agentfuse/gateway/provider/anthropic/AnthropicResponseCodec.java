package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.Counts;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes Anthropic {@code message} objects. Reading is lenient and keeps text and
 * tool-use blocks (thinking and server-tool blocks have no OpenAI counterpart and are left out).
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * ChatResponse answer = AnthropicResponseCodec.read(upstreamBody);
 * JsonObject forClient = OpenAiResponseCodec.write(answer);
 * }</pre>
 */
public final class AnthropicResponseCodec {

    private AnthropicResponseCodec() {
    }

    /**
     * {@code body}, if it is a well-formed {@code message}: {@code "type": "message"}, content blocks
     * with their types (text as a string, tool input as an object), and numeric usage.
     *
     * @throws MalformedAnswerException naming the first field that is missing or of the wrong type
     */
    public static JsonObject check(JsonObject body) {
        String type = AnswerShape.string(body, "type", "", false);
        if (!"message".equals(type)) {
            throw new MalformedAnswerException("type must be \"message\", but was "
                    + (type == null ? "missing" : "\"" + type + "\""));
        }
        AnswerShape.string(body, "id", "", false);
        AnswerShape.string(body, "model", "", false);
        AnswerShape.string(body, "stop_reason", "", false);
        AnswerShape.string(body, "stop_sequence", "", false);
        JsonArray blocks = AnswerShape.requiredArray(body, "content", "");
        for (int i = 0; i < blocks.size(); i++) {
            String path = "content[" + i + "].";
            JsonObject block = AnswerShape.objectAt(blocks, i, "content");
            switch (AnswerShape.string(block, "type", path, true)) {
                case "text" -> AnswerShape.string(block, "text", path, true);
                case "tool_use" -> {
                    AnswerShape.string(block, "id", path, true);
                    AnswerShape.string(block, "name", path, true);
                    AnswerShape.object(block, "input", path, true);
                }
                default -> {
                    // other blocks (thinking, server tools) are carried as they are
                }
            }
        }
        JsonObject usage = AnswerShape.object(body, "usage", "", false);
        if (usage != null) {
            for (String field : new String[] {"input_tokens", "output_tokens", "cache_creation_input_tokens",
                    "cache_read_input_tokens"}) {
                AnswerShape.optionalNumber(usage, field, "usage.");
            }
            JsonObject creation = AnswerShape.object(usage, "cache_creation", "usage.", false);
            if (creation != null) {
                for (String field : new String[] {"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"}) {
                    AnswerShape.optionalNumber(creation, field, "usage.cache_creation.");
                }
            }
        }
        return body;
    }

    /**
     * The neutral form of a {@code message} body, {@linkplain #check checked} before; {@code created}
     * is {@code now} (Anthropic sends none).
     */
    public static ChatResponse read(JsonObject body, long createdEpochSeconds) {
        List<ContentPart> content = new ArrayList<>();
        JsonArray blocks = body.getJsonArray("content", new JsonArray());
        for (int i = 0; i < blocks.size(); i++) {
            JsonObject block = blocks.getJsonObject(i);
            switch (block.getString("type", "")) {
                case "text" -> content.add(new ContentPart.Text(block.getString("text", "")));
                case "tool_use" -> content.add(new ContentPart.ToolCall(block.getString("id", ""),
                        block.getString("name", ""), block.getJsonObject("input", new JsonObject()).encode()));
                default -> {
                    // thinking, redacted_thinking and server-tool blocks stay on the Anthropic side.
                }
            }
        }
        return new ChatResponse(body.getString("id", ""), body.getString("model", ""), createdEpochSeconds, content,
                FinishReason.fromAnthropic(body.getString("stop_reason")), body.getString("stop_sequence"),
                usage(body.getJsonObject("usage")));
    }

    /**
     * The {@code message} body of {@code response}.
     *
     * @throws UntranslatableException when a tool call's arguments are not a JSON object
     */
    public static JsonObject write(ChatResponse response) {
        JsonArray content = new JsonArray();
        for (ContentPart part : response.content()) {
            if (part instanceof ContentPart.Text text) {
                content.add(new JsonObject().put("type", "text").put("text", text.text()));
            } else if (part instanceof ContentPart.ToolCall call) {
                content.add(new JsonObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                        .put("input", call.argumentsAsObject()));
            }
        }
        return new JsonObject()
                .put("id", response.id())
                .put("type", "message")
                .put("role", "assistant")
                .put("model", response.model())
                .put("content", content)
                .put("stop_reason", response.finishReason().anthropic())
                .put("stop_sequence", response.stopSequence())
                .put("usage", usageJson(response.usage()));
    }

    /**
     * The usage of an Anthropic {@code usage} object: its input is {@code input_tokens} (what the
     * cache did not serve) plus {@code cache_read_input_tokens} and {@code cache_creation_input_tokens},
     * which are its cached tokens, those of the writes kept an hour as
     * {@code cache_creation.ephemeral_1h_input_tokens} tells.
     */
    public static Usage usage(JsonObject usage) {
        if (usage == null) {
            return Usage.ZERO;
        }
        long reads = count(usage, "cache_read_input_tokens", 0);
        long writes = count(usage, "cache_creation_input_tokens", 0);
        Object creation = usage.getValue("cache_creation");
        long hourWrites = creation instanceof JsonObject kept ? Math.min(writes, count(kept, "ephemeral_1h_input_tokens", 0)) : 0;
        long input = Counts.sum(count(usage, "input_tokens", 0), Counts.sum(writes, reads));
        return Usage.of(input, count(usage, "output_tokens", 0), Usage.cached(reads, writes - hourWrites, hourWrites));
    }

    /**
     * The Anthropic {@code usage} object of {@code usage}: {@code input_tokens} is the input no cache
     * served, beside {@code cache_read_input_tokens} and {@code cache_creation_input_tokens} when
     * some was cached (as Anthropic writes them; without a cache, what was written before).
     */
    public static JsonObject usageJson(Usage usage) {
        CachedTokens cached = usage.cached();
        if (cached.equals(CachedTokens.NONE)) {
            return new JsonObject().put("input_tokens", usage.inputTokens()).put("output_tokens", usage.outputTokens());
        }
        JsonObject json = new JsonObject()
                .put("input_tokens", usage.inputTokens() - cached.total())
                .put("cache_creation_input_tokens", cached.allWrites())
                .put("cache_read_input_tokens", cached.reads());
        if (cached.allWrites() > 0) {
            json.put("cache_creation", new JsonObject().put("ephemeral_5m_input_tokens", cached.writes())
                    .put("ephemeral_1h_input_tokens", cached.hourWrites()));
        }
        return json.put("output_tokens", usage.outputTokens());
    }

    /**
     * Count {@code field} of {@code usage}, read as every dialect reads a count ({@link Usage#count});
     * {@code absent} when it is missing or null.
     *
     * @throws ClassCastException when it is not a number
     */
    static long count(JsonObject usage, String field, long absent) {
        Object value = usage.getValue(field);
        return value == null ? absent : Usage.count((Number) value);
    }
}
