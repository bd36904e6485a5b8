package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.provider.openai.OpenAiRequestParser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses and validates an OpenAI Responses API request ({@code POST /v1/responses}) into a
 * {@link ChatRequest} of {@link ResponsesDialect}. On a route to an OpenAI provider the body is
 * forwarded as received ({@link ResponsesDialect#sameDialectRequest}); the neutral form serves
 * translation to another dialect, and the fields it cannot carry are listed in
 * {@link ChatRequest#untranslatable()}.
 *
 * <ul>
 *   <li>translated: {@code input} (a string, or items: {@code message} with {@code input_text},
 *       {@code output_text}, {@code refusal} and {@code input_image} URL parts; {@code function_call};
 *       {@code function_call_output} with text output), {@code instructions} and system/developer
 *       messages (joined, in order, into the system prompt), {@code function} tools,
 *       {@code tool_choice}, {@code parallel_tool_calls}, {@code max_output_tokens},
 *       {@code temperature} (up to Anthropic's 1), {@code top_p}, {@code stream}, {@code user};</li>
 *   <li>dropped as hints without an equivalent: {@code reasoning} (and earlier {@code reasoning}
 *       items), {@code metadata}, {@code store: false}, {@code strict} of function tools,
 *       {@code text.verbosity}, {@code include: ["reasoning.encrypted_content"]},
 *       {@code truncation: "disabled"}, {@code stream_options}, {@code service_tier},
 *       {@code prompt_cache_key}, {@code prompt_cache_retention}, {@code safety_identifier},
 *       {@code max_tool_calls}, {@code background: false};</li>
 *   <li>untranslatable, because they need the provider's stored state or its own tools:
 *       {@code previous_response_id}, {@code store: true}, {@code conversation}, {@code prompt},
 *       {@code background: true}, {@code context_management}, {@code item_reference} and built-in
 *       tool items, tools other than {@code function} (web_search, file_search, mcp, custom, ...),
 *       tool_choice of such tools, file and audio parts, images by {@code file_id}, structured
 *       {@code text.format}, {@code top_logprobs}, other {@code include} values,
 *       {@code truncation: "auto"}, and every top-level field this parser does not know.</li>
 * </ul>
 * Unknown fields and item types are not rejected: a same-dialect route forwards them, since the
 * provider adds fields faster than the gateway learns them.
 *
 * <p>Stateless and thread-safe. {@code ChatRequest r = ResponsesRequestParser.parse(body);}
 */
public final class ResponsesRequestParser {

    private static final Set<String> KNOWN = Set.of("model", "input", "instructions", "tools", "tool_choice",
            "parallel_tool_calls", "max_output_tokens", "temperature", "top_p", "stream", "stream_options", "user",
            "reasoning", "metadata", "store", "text", "include", "truncation", "service_tier", "prompt_cache_key",
            "prompt_cache_retention", "safety_identifier", "max_tool_calls", "background", "top_logprobs",
            "previous_response_id", "conversation", "prompt", "context_management");
    private static final Set<String> STATEFUL = Set.of("previous_response_id", "conversation", "prompt",
            "context_management");

    private ResponsesRequestParser() {
    }

    /** @throws InvalidRequestException naming the first bad field */
    public static ChatRequest parse(JsonObject body) {
        FieldReader root = FieldReader.root(body);
        List<String> untranslatable = new ArrayList<>();
        String model = root.requiredString("model");
        noteUntranslatableOptions(root, untranslatable);
        List<String> system = new ArrayList<>();
        String instructions = root.optionalString("instructions");
        if (instructions != null && !instructions.isEmpty()) {
            system.add(instructions);
        }
        List<ChatMessage> messages = ResponsesInputParser.parse(root, system, untranslatable);
        if (!root.has("input") && STATEFUL.stream().noneMatch(root::has)) {
            throw root.problem("input", "is required");
        }
        if (messages.isEmpty() && untranslatable.isEmpty()) {
            // Only a same-dialect route could make sense of it, and only through stored state.
            throw root.problem("input", "must contain at least one message");
        }
        List<ToolDefinition> tools = parseTools(root, untranslatable);
        ToolChoice toolChoice = OpenAiRequestParser.parseToolChoice(root, untranslatable,
                choice -> choice.requiredString("name"));
        Double temperature = root.optionalNumber("temperature", 0, 2);
        if (temperature != null && temperature > 1) {
            untranslatable.add("temperature " + temperature + " is above Anthropic's maximum of 1");
        }
        Sampling sampling = new Sampling(root.optionalInt("max_output_tokens", 1), temperature,
                root.optionalNumber("top_p", 0, 1), List.of());
        StreamMode stream = Boolean.TRUE.equals(root.optionalBoolean("stream")) ? StreamMode.STREAM : StreamMode.NONE;
        return new ChatRequest(ResponsesDialect.INSTANCE, body, model, ChatRequest.systemPrompt(system),
                messages, tools, toolChoice, sampling, stream, root.optionalString("user"), untranslatable);
    }

    private static List<ToolDefinition> parseTools(FieldReader root, List<String> untranslatable) {
        JsonArray array = root.optionalArray("tools");
        List<ToolDefinition> tools = new ArrayList<>();
        for (int i = 0; array != null && i < array.size(); i++) {
            FieldReader tool = root.objectAt("tools", i);
            String type = tool.requiredString("type");
            if (!"function".equals(type)) {
                untranslatable.add(tool.path("type") + " '" + type + "' tools (they run at the provider)");
                continue;
            }
            tool.optionalBoolean("strict");
            FieldReader parameters = tool.optionalObject("parameters");
            tools.add(new ToolDefinition(tool.requiredString("name"), tool.optionalString("description"),
                    parameters == null ? null : parameters.json()));
        }
        return tools;
    }

    private static void noteUntranslatableOptions(FieldReader root, List<String> untranslatable) {
        for (String field : root.json().fieldNames()) {
            if (!KNOWN.contains(field) && root.has(field)) {
                untranslatable.add(field + " (a field the gateway cannot translate)");
            }
        }
        for (String field : STATEFUL) {
            if (root.has(field)) {
                untranslatable.add(field + " (needs the provider's stored state)");
            }
        }
        if (Boolean.TRUE.equals(root.optionalBoolean("store"))) {
            untranslatable.add("store: true (needs the provider's stored state)");
        }
        if (Boolean.TRUE.equals(root.optionalBoolean("background"))) {
            untranslatable.add("background: true (needs the provider's stored state)");
        }
        Integer topLogprobs = root.optionalInt("top_logprobs", 0);
        if (topLogprobs != null && topLogprobs > 0) {
            untranslatable.add("top_logprobs");
        }
        String truncation = root.optionalString("truncation");
        if ("auto".equals(truncation)) {
            untranslatable.add("truncation: auto");
        }
        for (String value : root.stringOrStrings("include")) {
            if (!"reasoning.encrypted_content".equals(value)) {
                untranslatable.add("include '" + value + "'");
            }
        }
        FieldReader text = root.optionalObject("text");
        FieldReader format = text == null ? null : text.optionalObject("format");
        if (format != null && !"text".equals(format.requiredString("type"))) {
            untranslatable.add("text.format of type '" + format.requiredString("type") + "'");
        }
        root.optionalObject("reasoning");
        root.optionalObject("metadata");
    }
}
