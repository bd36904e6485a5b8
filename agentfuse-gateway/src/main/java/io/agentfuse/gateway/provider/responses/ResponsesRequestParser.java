package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.dialect.CrossingNotes;
import io.agentfuse.gateway.dialect.FieldReader;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.provider.TranslationTable;
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
 * translation to another dialect, by {@link TranslationTable}:
 *
 * <ul>
 *   <li>translated: {@code input} (a string, or items: {@code message} with {@code input_text},
 *       {@code output_text}, {@code refusal} and {@code input_image} URL parts; {@code function_call};
 *       {@code function_call_output} with text output), {@code instructions} and system/developer
 *       messages (joined, in order, into the system prompt), {@code function} tools and the
 *       functions of {@code namespace} tools (flattened to {@code namespace__name}; a call of one
 *       names its namespace again in the answer), {@code tool_choice}, {@code parallel_tool_calls},
 *       {@code max_output_tokens}, {@code temperature} (up to Anthropic's 1), {@code top_p},
 *       {@code stream}, {@code user};</li>
 *   <li>dropped and named: {@code reasoning} (and earlier {@code reasoning} items), {@code metadata},
 *       {@code client_metadata}, {@code store}, {@code include}, {@code truncation},
 *       {@code stream_options}, {@code service_tier}, the prompt-cache keys, {@code safety_identifier},
 *       {@code max_tool_calls}, {@code context_management};</li>
 *   <li>left out only for a model with {@code translate: lenient}: built-in tools ({@code web_search},
 *       {@code file_search}, {@code mcp}, ...) and every top-level field the gateway does not know;</li>
 *   <li>untranslatable, because they need the provider's stored state or change the answer:
 *       {@code previous_response_id}, {@code conversation}, {@code prompt}, {@code background: true},
 *       {@code item_reference} and built-in tool items, tool_choice of built-in tools, file and audio
 *       parts, images by {@code file_id}, structured {@code text.format}, {@code top_logprobs}.</li>
 * </ul>
 * Unknown fields and item types are not rejected: a same-dialect route forwards them, since the
 * provider adds fields faster than the gateway learns them.
 *
 * <p>Stateless and thread-safe. {@code ChatRequest r = ResponsesRequestParser.parse(body);}
 */
public final class ResponsesRequestParser {

    /** Fields that stand for the conversation held by the provider, where {@code input} may be left out. */
    private static final Set<String> STATEFUL = Set.of("previous_response_id", "conversation", "prompt",
            "context_management");
    /** Between a namespace and the name of one of its functions, when flattened. */
    public static final String NAMESPACE_SEPARATOR = "__";

    private ResponsesRequestParser() {
    }

    /** @throws InvalidRequestException naming the first bad field */
    public static ChatRequest parse(JsonObject body) {
        FieldReader root = FieldReader.root(body);
        List<String> untranslatable = new ArrayList<>();
        CrossingNotes notes = new CrossingNotes(untranslatable);
        TranslationTable.sortFields(ResponsesDialect.INSTANCE.name(), root, notes);
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
        List<ToolDefinition> tools = parseTools(root, notes);
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
                messages, tools, toolChoice, sampling, stream, root.optionalString("user"), untranslatable,
                ChatRequest.Crossing.of(notes));
    }

    private static List<ToolDefinition> parseTools(FieldReader root, CrossingNotes notes) {
        JsonArray array = root.optionalArray("tools");
        List<ToolDefinition> tools = new ArrayList<>();
        for (int i = 0; array != null && i < array.size(); i++) {
            FieldReader tool = root.objectAt("tools", i);
            String type = tool.requiredString("type");
            if ("namespace".equals(type)) {
                namespace(tool, tools, notes);
            } else if ("function".equals(type)) {
                tools.add(function(tool, null));
            } else {
                notes.lenient(type + " tool", tool.path("type") + " '" + type + "' tools (they run at the provider)");
            }
        }
        return tools;
    }

    /** The functions of a {@code namespace} tool, flattened to {@code namespace__name}. */
    private static void namespace(FieldReader tool, List<ToolDefinition> tools, CrossingNotes notes) {
        String namespace = tool.requiredString("name");
        JsonArray members = tool.requiredArray("tools");
        for (int j = 0; j < members.size(); j++) {
            FieldReader member = tool.objectAt("tools", j);
            String type = member.requiredString("type");
            if ("function".equals(type)) {
                tools.add(function(member, namespace));
            } else {
                notes.lenient(type + " tool", member.path("type") + " '" + type + "' tools");
            }
        }
    }

    private static ToolDefinition function(FieldReader tool, String namespace) {
        tool.optionalBoolean("strict");
        FieldReader parameters = tool.optionalObject("parameters");
        String name = tool.requiredString("name");
        return new ToolDefinition(namespace == null ? name : namespace + NAMESPACE_SEPARATOR + name,
                tool.optionalString("description"), parameters == null ? null : parameters.json(), namespace);
    }

    /** The values of translated fields that change the answer and have no equivalent. */
    private static void noteUntranslatableOptions(FieldReader root, List<String> untranslatable) {
        if (Boolean.TRUE.equals(root.optionalBoolean("background"))) {
            untranslatable.add("background: true (needs the provider's stored state)");
        }
        Integer topLogprobs = root.optionalInt("top_logprobs", 0);
        if (topLogprobs != null && topLogprobs > 0) {
            untranslatable.add("top_logprobs");
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
