package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.core.budget.Counts;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes Gemini {@code GenerateContentResponse}s, complete or one chunk of a stream. Only
 * candidate 0 is read; its {@code text} parts (not the {@code thought} ones) and {@code functionCall}s
 * are kept. A function call without an {@code id} (the Gemini API sends none) gets one made of the
 * response id and its place, so a caller of another dialect can answer it.
 *
 * <table>
 *   <caption>finish reasons</caption>
 *   <tr><th>Gemini {@code finishReason}</th><th>neutral</th></tr>
 *   <tr><td>STOP</td><td>STOP, or TOOL_CALLS when the answer calls functions</td></tr>
 *   <tr><td>MAX_TOKENS</td><td>LENGTH</td></tr>
 *   <tr><td>SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, IMAGE_SAFETY</td><td>CONTENT_FILTER</td></tr>
 * </table>
 * Written back, STOP, TOOL_CALLS and STOP_SEQUENCE are {@code STOP}, LENGTH {@code MAX_TOKENS},
 * CONTENT_FILTER {@code SAFETY}. Usage: input is {@code promptTokenCount} (cached tokens included) plus
 * {@code toolUsePromptTokenCount}; output {@code candidatesTokenCount} plus {@code thoughtsTokenCount}.
 *
 * <p>Stateless and thread-safe.
 */
public final class GeminiResponseCodec {

    /** The finish reason of a candidate whose function call the model did not manage to write. */
    private static final String MALFORMED_FUNCTION_CALL = "MALFORMED_FUNCTION_CALL";
    /** What an answer without candidates, whose prompt was not blocked, lacks (see {@link #checkAnswer}). */
    static final String NO_CANDIDATES = "no candidates, and no promptFeedback.blockReason saying the prompt was blocked";

    private GeminiResponseCodec() {
    }

    /**
     * {@code body}, if it is a well-formed response or stream chunk: candidates (when present) with
     * {@code content.parts} objects, text as strings, function calls with a name and object
     * arguments, numeric usage, and a first candidate that did not end with
     * {@code MALFORMED_FUNCTION_CALL} (the model failed to write a call: no content, and no answer an
     * agent could go on with). A complete answer needs more ({@link #checkAnswer}).
     *
     * @throws MalformedAnswerException naming the first field that is missing or of the wrong type
     */
    public static JsonObject check(JsonObject body) {
        if (!body.containsKey("candidates") && !body.containsKey("promptFeedback") && !body.containsKey("usageMetadata")) {
            throw new MalformedAnswerException("the answer has no \"candidates\", \"promptFeedback\" or \"usageMetadata\"");
        }
        JsonArray candidates = body.containsKey("candidates") ? AnswerShape.requiredArray(body, "candidates", "") : new JsonArray();
        for (int i = 0; i < candidates.size(); i++) {
            String path = "candidates[" + i + "].";
            JsonObject candidate = AnswerShape.objectAt(candidates, i, "candidates");
            AnswerShape.string(candidate, "finishReason", path, false);
            JsonObject content = AnswerShape.object(candidate, "content", path, false);
            JsonArray parts = content == null || content.getValue("parts") == null ? new JsonArray()
                    : AnswerShape.requiredArray(content, "parts", path + "content.");
            for (int p = 0; p < parts.size(); p++) {
                String partPath = path + "content.parts[" + p + "].";
                JsonObject part = AnswerShape.objectAt(parts, p, path + "content.parts");
                AnswerShape.string(part, "text", partPath, false);
                JsonObject call = AnswerShape.object(part, "functionCall", partPath, false);
                if (call != null) {
                    AnswerShape.string(call, "name", partPath + "functionCall.", true);
                    AnswerShape.object(call, "args", partPath + "functionCall.", false);
                }
            }
        }
        if (!candidates.isEmpty() && MALFORMED_FUNCTION_CALL.equals(candidates.getJsonObject(0).getValue("finishReason"))) {
            // The model failed to write its call: an answer with no content that ends the turn is not one.
            throw new MalformedAnswerException("the model wrote a malformed function call (finishReason "
                    + MALFORMED_FUNCTION_CALL + "): " + string(candidates.getJsonObject(0), "finishMessage", "no message"));
        }
        JsonObject usage = AnswerShape.object(body, "usageMetadata", "", false);
        if (usage != null) {
            for (String field : new String[] {"promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount",
                    "toolUsePromptTokenCount", "totalTokenCount"}) {
                AnswerShape.optionalNumber(usage, field, "usageMetadata.");
            }
        }
        return body;
    }

    /**
     * {@code body}, if it is a well-formed complete answer: {@linkplain #check well-formed}, with at
     * least one candidate — unless its {@code promptFeedback.blockReason} says the prompt was blocked,
     * which Gemini answers without any (a content filter). An answer of no candidates otherwise (its
     * usage only, or an empty list) has no answer in it: a failed attempt, as
     * {@code "candidates": null} is, not an empty turn. A stream's chunks may each go without
     * ({@link GeminiStreamDecoder}); the stream as a whole may not.
     *
     * @throws MalformedAnswerException naming what is missing or of the wrong type
     */
    public static JsonObject checkAnswer(JsonObject body) {
        check(body);
        if (candidate(body) == null && !blocked(body)) {
            throw new MalformedAnswerException("the answer has " + NO_CANDIDATES);
        }
        return body;
    }

    /** The neutral form of a {@linkplain #check checked} response; {@code created} stamps it (Gemini sends no time). */
    public static ChatResponse read(JsonObject body, long createdEpochSeconds) {
        String id = string(body, "responseId", "");
        List<ContentPart> content = parts(candidate(body), id, 0);
        return new ChatResponse(id, string(body, "modelVersion", ""), createdEpochSeconds, content,
                finishReason(body, content.stream().anyMatch(ContentPart.ToolCall.class::isInstance)), null,
                usage(body.getJsonObject("usageMetadata")));
    }

    /**
     * The text and function calls of one candidate; calls without an id are numbered from {@code firstCall}.
     */
    static List<ContentPart> parts(JsonObject candidate, String responseId, int firstCall) {
        List<ContentPart> content = new ArrayList<>();
        JsonObject body = candidate != null && candidate.getValue("content") instanceof JsonObject given ? given : null;
        JsonArray parts = body != null && body.getValue("parts") instanceof JsonArray given ? given : new JsonArray();
        int calls = firstCall;
        for (int i = 0; i < parts.size(); i++) {
            JsonObject part = parts.getJsonObject(i);
            if (part.getValue("text") instanceof String text && !Boolean.TRUE.equals(part.getValue("thought"))) {
                content.add(new ContentPart.Text(text));
            } else if (part.getValue("functionCall") instanceof JsonObject call) {
                String id = string(call, "id", (responseId.isEmpty() ? "call" : "call_" + responseId) + "_" + calls);
                content.add(new ContentPart.ToolCall(id, call.getString("name"),
                        call.getValue("args") instanceof JsonObject args ? args.encode() : "{}"));
                calls++;
            }
        }
        return content;
    }

    /**
     * The string {@code field} of {@code json}, or {@code absent} when it is missing or {@code null}:
     * Google's JSON writes an unset field as {@code null} as readily as it leaves it out.
     */
    static String string(JsonObject json, String field, String absent) {
        return json.getValue(field) instanceof String value ? value : absent;
    }

    /** Whether {@code candidate} holds a thought (a part marked {@code "thought": true}): the model shows its reasoning. */
    static boolean showsThoughts(JsonObject candidate) {
        JsonObject body = candidate == null ? null : candidate.getJsonObject("content");
        JsonArray parts = body == null ? null : body.getJsonArray("parts");
        for (int i = 0; parts != null && i < parts.size(); i++) {
            if (parts.getValue(i) instanceof JsonObject part && Boolean.TRUE.equals(part.getValue("thought"))) {
                return true;
            }
        }
        return false;
    }

    /** Candidate 0 of {@code body}, or {@code null}. */
    static JsonObject candidate(JsonObject body) {
        JsonArray candidates = body.getJsonArray("candidates");
        return candidates == null || candidates.isEmpty() ? null : candidates.getJsonObject(0);
    }

    /** Why the answer ended; {@code null} while candidate 0 has no finish reason and the prompt was not blocked. */
    static FinishReason finishReason(JsonObject body, boolean callsFunctions) {
        JsonObject candidate = candidate(body);
        String reason = candidate == null ? null : candidate.getString("finishReason");
        if (reason == null) {
            return blocked(body) ? FinishReason.CONTENT_FILTER : null;
        }
        return switch (reason) {
            case "MAX_TOKENS" -> FinishReason.LENGTH;
            case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY" -> FinishReason.CONTENT_FILTER;
            default -> callsFunctions ? FinishReason.TOOL_CALLS : FinishReason.STOP;
        };
    }

    /** Whether {@code body}'s {@code promptFeedback} says the prompt was blocked (a {@code blockReason}). */
    static boolean blocked(JsonObject body) {
        return body.getValue("promptFeedback") instanceof JsonObject feedback && feedback.getValue("blockReason") != null;
    }

    /** Gemini's {@code finishReason} of {@code reason}. */
    static String finishReason(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> "MAX_TOKENS";
            case CONTENT_FILTER -> "SAFETY";
            default -> "STOP";
        };
    }

    /**
     * The response body of {@code response}.
     *
     * @throws UntranslatableException when a tool call's arguments are not a JSON object
     */
    public static JsonObject write(ChatResponse response) {
        return response(partsOf(response.content()), finishReason(response.finishReason()), response.usage(),
                response.model(), response.id());
    }

    /** A response body of {@code parts}; {@code finishReason} and {@code usage} may be {@code null}. */
    static JsonObject response(JsonArray parts, String finishReason, Usage usage, String model, String id) {
        JsonObject candidate = new JsonObject().put("content", new JsonObject().put("parts", parts).put("role", "model"));
        if (finishReason != null) {
            candidate.put("finishReason", finishReason);
        }
        JsonObject body = new JsonObject().put("candidates", new JsonArray().add(candidate.put("index", 0)));
        if (usage != null) {
            body.put("usageMetadata", usageJson(usage));
        }
        return body.put("modelVersion", model).put("responseId", id);
    }

    /** The Gemini parts of neutral content. */
    static JsonArray partsOf(List<ContentPart> content) {
        JsonArray parts = new JsonArray();
        for (ContentPart part : content) {
            if (part instanceof ContentPart.Text text) {
                parts.add(new JsonObject().put("text", text.text()));
            } else if (part instanceof ContentPart.ToolCall call) {
                parts.add(new JsonObject().put("functionCall", new JsonObject().put("id", call.id()).put("name", call.name())
                        .put("args", call.argumentsAsObject())));
            }
        }
        return parts;
    }

    /**
     * The usage of a {@code usageMetadata} object: {@code promptTokenCount} counts the cached content
     * too, of which {@code cachedContentTokenCount} tells the tokens read from the cache (an explicit
     * cache's storage, billed by the hour, is no call's).
     */
    public static Usage usage(JsonObject usage) {
        if (usage == null) {
            return Usage.ZERO;
        }
        return Usage.of(Counts.sum(count(usage, "promptTokenCount"), count(usage, "toolUsePromptTokenCount")),
                Counts.sum(count(usage, "candidatesTokenCount"), count(usage, "thoughtsTokenCount")),
                Usage.cached(count(usage, "cachedContentTokenCount"), 0, 0));
    }

    /** The {@code usageMetadata} object of {@code usage}, with {@code cachedContentTokenCount} when some input was read from the cache. */
    static JsonObject usageJson(Usage usage) {
        JsonObject json = new JsonObject().put("promptTokenCount", usage.inputTokens())
                .put("candidatesTokenCount", usage.outputTokens()).put("totalTokenCount", usage.total());
        return usage.cached().reads() > 0 ? json.put("cachedContentTokenCount", usage.cached().reads()) : json;
    }

    private static long count(JsonObject usage, String field) {
        return usage.getValue(field) instanceof Number number ? Usage.count(number) : 0;
    }
}
