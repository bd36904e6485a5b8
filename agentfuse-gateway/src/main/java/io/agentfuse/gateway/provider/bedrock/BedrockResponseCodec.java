package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.Counts;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes Bedrock Converse answers ({@code {"output": {"message": {"role", "content"}},
 * "stopReason", "usage"}}); text and {@code toolUse} blocks are kept, reasoning and citations left out.
 *
 * <table>
 *   <caption>stop reasons</caption>
 *   <tr><th>Bedrock {@code stopReason}</th><th>neutral</th></tr>
 *   <tr><td>end_turn</td><td>STOP</td></tr>
 *   <tr><td>tool_use</td><td>TOOL_CALLS</td></tr>
 *   <tr><td>max_tokens, model_context_window_exceeded</td><td>LENGTH</td></tr>
 *   <tr><td>stop_sequence</td><td>STOP_SEQUENCE</td></tr>
 *   <tr><td>content_filtered, guardrail_intervened</td><td>CONTENT_FILTER</td></tr>
 * </table>
 * Usage: input is {@code inputTokens} plus the cache reads and writes, output {@code outputTokens}.
 * A Converse answer names neither itself nor its model: both read as empty.
 *
 * <p>Stateless and thread-safe.
 */
public final class BedrockResponseCodec {

    /** The {@code ttl} of a {@code cacheDetails} entry written to be kept an hour. */
    private static final String HOUR = "1h";

    private BedrockResponseCodec() {
    }

    /**
     * {@code body}, if it is a well-formed Converse answer.
     *
     * @throws MalformedAnswerException naming the first field that is missing or of the wrong type
     */
    public static JsonObject check(JsonObject body) {
        JsonObject output = AnswerShape.object(body, "output", "", true);
        JsonObject message = AnswerShape.object(output, "message", "output.", true);
        JsonArray blocks = AnswerShape.requiredArray(message, "content", "output.message.");
        for (int i = 0; i < blocks.size(); i++) {
            String path = "output.message.content[" + i + "].";
            JsonObject block = AnswerShape.objectAt(blocks, i, "output.message.content");
            AnswerShape.string(block, "text", path, false);
            JsonObject toolUse = AnswerShape.object(block, "toolUse", path, false);
            if (toolUse != null) {
                AnswerShape.string(toolUse, "toolUseId", path + "toolUse.", true);
                AnswerShape.string(toolUse, "name", path + "toolUse.", true);
            }
        }
        AnswerShape.string(body, "stopReason", "", true);
        JsonObject usage = AnswerShape.object(body, "usage", "", false);
        if (usage != null) {
            for (String field : new String[] {"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"}) {
                AnswerShape.optionalNumber(usage, field, "usage.");
            }
            // cacheDetails only splits the writes by their time to live: read where well formed, never a reason to refuse
        }
        return body;
    }

    /** The neutral form of a {@linkplain #check checked} answer, stamped {@code created}. */
    public static ChatResponse read(JsonObject body, long createdEpochSeconds) {
        List<ContentPart> content = new ArrayList<>();
        JsonArray blocks = body.getJsonObject("output").getJsonObject("message").getJsonArray("content");
        for (int i = 0; i < blocks.size(); i++) {
            JsonObject block = blocks.getJsonObject(i);
            if (block.getValue("text") instanceof String text) {
                content.add(new ContentPart.Text(text));
            } else if (block.getValue("toolUse") instanceof JsonObject toolUse) {
                Object input = toolUse.getValue("input");
                content.add(new ContentPart.ToolCall(toolUse.getString("toolUseId"), toolUse.getString("name"),
                        input == null ? "{}" : input instanceof JsonObject object ? object.encode() : String.valueOf(input)));
            }
        }
        return new ChatResponse("", "", createdEpochSeconds, content, finishReason(body.getString("stopReason")), null,
                usage(body.getJsonObject("usage")));
    }

    /** The Converse answer of {@code response}. */
    public static JsonObject write(ChatResponse response) {
        JsonArray content = new JsonArray();
        for (ContentPart part : response.content()) {
            if (part instanceof ContentPart.Text text) {
                content.add(new JsonObject().put("text", text.text()));
            } else if (part instanceof ContentPart.ToolCall call) {
                content.add(new JsonObject().put("toolUse", new JsonObject().put("toolUseId", call.id())
                        .put("name", call.name()).put("input", call.argumentsAsObject())));
            }
        }
        return new JsonObject()
                .put("output", new JsonObject().put("message", new JsonObject().put("role", "assistant").put("content", content)))
                .put("stopReason", stopReason(response.finishReason()))
                .put("usage", usageJson(response.usage()));
    }

    /** The neutral reason of a Bedrock {@code stopReason}; {@code null} when absent. */
    static FinishReason finishReason(String stopReason) {
        if (stopReason == null) {
            return null;
        }
        return switch (stopReason) {
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "stop_sequence" -> FinishReason.STOP_SEQUENCE;
            case "content_filtered", "guardrail_intervened" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.STOP;
        };
    }

    /** Bedrock's {@code stopReason} of {@code reason}. */
    static String stopReason(FinishReason reason) {
        return switch (reason) {
            case TOOL_CALLS -> "tool_use";
            case LENGTH -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case CONTENT_FILTER -> "content_filtered";
            default -> "end_turn";
        };
    }

    /**
     * The usage of a Bedrock {@code usage} object: its input is {@code inputTokens} (what the cache did
     * not serve) plus {@code cacheReadInputTokens} and {@code cacheWriteInputTokens}, its cached tokens;
     * of the writes, those its {@code cacheDetails} give a {@code ttl} of {@code 1h} are kept an hour,
     * at the dearer price (as Anthropic's {@code ephemeral_1h_input_tokens}).
     */
    public static Usage usage(JsonObject usage) {
        if (usage == null) {
            return Usage.ZERO;
        }
        long reads = count(usage, "cacheReadInputTokens");
        long writes = count(usage, "cacheWriteInputTokens");
        long hourWrites = Math.min(writes, hourWrites(usage.getValue("cacheDetails")));
        return Usage.of(Counts.sum(count(usage, "inputTokens"), Counts.sum(reads, writes)), count(usage, "outputTokens"),
                Usage.cached(reads, writes - hourWrites, hourWrites));
    }

    /** The tokens of the {@code cacheDetails} entries whose {@code ttl} is {@code 1h}. */
    private static long hourWrites(Object details) {
        long tokens = 0;
        if (details instanceof JsonArray entries) {
            for (int i = 0; i < entries.size(); i++) {
                if (entries.getValue(i) instanceof JsonObject entry && HOUR.equals(entry.getValue("ttl"))) {
                    tokens = Counts.sum(tokens, count(entry, "inputTokens"));
                }
            }
        }
        return tokens;
    }

    /**
     * Bedrock's {@code usage} object of {@code usage}: {@code inputTokens} is the input no cache served,
     * beside {@code cacheReadInputTokens} and {@code cacheWriteInputTokens} when some was cached, and
     * the writes by their time to live in {@code cacheDetails} (the hour's first, as Bedrock sorts them).
     */
    static JsonObject usageJson(Usage usage) {
        CachedTokens cached = usage.cached();
        JsonObject json = new JsonObject().put("inputTokens", usage.inputTokens() - cached.total())
                .put("outputTokens", usage.outputTokens()).put("totalTokens", usage.total());
        if (cached.equals(CachedTokens.NONE)) {
            return json;
        }
        json.put("cacheReadInputTokens", cached.reads()).put("cacheWriteInputTokens", cached.allWrites());
        JsonArray details = new JsonArray();
        if (cached.hourWrites() > 0) {
            details.add(new JsonObject().put("ttl", HOUR).put("inputTokens", cached.hourWrites()));
        }
        if (cached.writes() > 0) {
            details.add(new JsonObject().put("ttl", "5m").put("inputTokens", cached.writes()));
        }
        return details.isEmpty() ? json : json.put("cacheDetails", details);
    }

    private static long count(JsonObject usage, String field) {
        return usage.getValue(field) instanceof Number number ? Usage.count(number) : 0;
    }
}
