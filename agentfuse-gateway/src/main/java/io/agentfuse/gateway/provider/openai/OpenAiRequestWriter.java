package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.ToolChoice;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.provider.SamplingFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes a neutral {@link ChatRequest} as an OpenAI Chat Completions request body.
 *
 * <p>Choices made: the length limit is written as {@code max_completion_tokens} (the current
 * name; {@code max_tokens} is deprecated and refused by reasoning models); a streamed request
 * always asks for {@code stream_options.include_usage} so that token use is known; a tool
 * result marked as an error gets an {@code "Error: "} prefix, since OpenAI tool messages have
 * no error flag; each tool result becomes its own {@code tool} message, placed where it was, and
 * its images and files, which a tool message cannot hold, go in a user message after the tool
 * messages. A document is a {@code file} part, a PDF given as data only. A message read from a Chat
 * Completions caller is written as it came (a compacted or continued request of the caller's own
 * dialect loses no field of it), with the legacy {@code function} and later {@code system} messages
 * that ride with it ({@link OpenAiRiders}).
 *
 * <p>Stateless and thread-safe.
 * {@code JsonObject body = OpenAiRequestWriter.write(request, "gpt-4o-mini");}
 */
public final class OpenAiRequestWriter {

    /** The text of a tool message whose result is images or files alone. */
    static final String MEDIA_FOLLOW = "(its images and files are in the next message)";

    private OpenAiRequestWriter() {
    }

    /** The request body for {@code model}. */
    public static JsonObject write(ChatRequest request, String model) {
        JsonObject body = new JsonObject().put("model", model);
        JsonArray messages = new JsonArray();
        String system = OpenAiRiders.leadingSystem(request); // a later system message is written where it was
        if (system != null) {
            messages.add(new JsonObject().put("role", "system").put("content", system));
        }
        for (ChatMessage message : request.messages()) {
            List<JsonObject> origin = message.originIn(OpenAiDialect.INSTANCE);
            if (!origin.isEmpty()) {
                origin.forEach(messages::add); // a Chat Completions caller's own message, with every field it had
            } else if (message.role() == ChatMessage.Role.ASSISTANT) {
                messages.add(assistant(message));
            } else {
                user(message, messages);
            }
        }
        body.put("messages", messages);
        writeTools(request, body);
        Sampling sampling = request.sampling();
        putIfPresent(body, "max_completion_tokens", sampling.maxTokens());
        SamplingFields.put(body, sampling, "top_p", "stop");
        if (request.stream()) {
            body.put("stream", true).put("stream_options", new JsonObject().put("include_usage", true));
        }
        putIfPresent(body, "user", request.endUser());
        return body;
    }

    private static JsonObject assistant(ChatMessage message) {
        return assistantMessage(message.content());
    }

    /**
     * An OpenAI assistant message of {@code parts}: their text joined, their tool calls as
     * {@code tool_calls}, and {@code content: null} when there are calls but no text (as OpenAI
     * writes it). Shared by requests (history) and responses (the answer).
     */
    static JsonObject assistantMessage(List<ContentPart> parts) {
        StringBuilder text = new StringBuilder();
        JsonArray calls = new JsonArray();
        for (ContentPart part : parts) {
            if (part instanceof ContentPart.Text t) {
                text.append(t.text());
            } else if (part instanceof ContentPart.ToolCall call) {
                calls.add(new JsonObject().put("id", call.id()).put("type", "function")
                        .put("function", new JsonObject().put("name", call.name()).put("arguments", call.arguments())));
            }
        }
        JsonObject out = new JsonObject().put("role", "assistant")
                .put("content", text.length() == 0 && !calls.isEmpty() ? null : text.toString());
        return calls.isEmpty() ? out : out.put("tool_calls", calls);
    }

    /**
     * Tool results become {@code tool} messages where they were, the text, images and files around
     * them user messages. A tool message holds text only, so a result's images and files follow the
     * run of tool messages (which must directly follow the call) in a user message that names their call.
     */
    private static void user(ChatMessage message, JsonArray messages) {
        List<ContentPart> pending = new ArrayList<>();
        List<ContentPart> toolMedia = new ArrayList<>();
        for (ContentPart part : message.content()) {
            if (part instanceof ContentPart.ToolResult result) {
                flushUser(pending, messages);
                List<ContentPart> media = result.media();
                String text = result.flaggedText();
                messages.add(new JsonObject().put("role", "tool").put("tool_call_id", result.toolCallId())
                        .put("content", text.isBlank() && !media.isEmpty() ? MEDIA_FOLLOW : text));
                if (!media.isEmpty()) {
                    toolMedia.add(new ContentPart.Text("What tool call " + result.toolCallId() + " returned:"));
                    toolMedia.addAll(media);
                }
            } else {
                pending.addAll(toolMedia);
                toolMedia.clear();
                pending.add(part);
            }
        }
        pending.addAll(toolMedia);
        flushUser(pending, messages);
    }

    private static void flushUser(List<ContentPart> parts, JsonArray messages) {
        if (parts.isEmpty()) {
            return;
        }
        Object content;
        if (parts.size() == 1 && parts.get(0) instanceof ContentPart.Text only) {
            content = only.text();
        } else {
            JsonArray array = new JsonArray();
            for (ContentPart part : parts) {
                if (part instanceof ContentPart.Text t) {
                    array.add(new JsonObject().put("type", "text").put("text", t.text()));
                } else if (part instanceof ContentPart.Image image) {
                    array.add(new JsonObject().put("type", "image_url")
                            .put("image_url", new JsonObject().put("url", image.source().url())));
                } else if (part instanceof ContentPart.Document document) {
                    array.add(file(document));
                }
            }
            content = array;
        }
        messages.add(new JsonObject().put("role", "user").put("content", content));
        parts.clear();
    }

    /**
     * A {@code file} part: Chat Completions takes a PDF as data, with a file name.
     *
     * @throws UntranslatableException for a document by URL or one that is not a PDF
     */
    private static JsonObject file(ContentPart.Document document) {
        if (!document.source().isData() || !"application/pdf".equals(document.mediaType())) {
            throw new UntranslatableException(document.source().isData()
                    ? "a document of type " + document.mediaType() + " (Chat Completions reads PDF files)"
                    : "a document by URL (Chat Completions takes files as data)");
        }
        String name = document.title() == null ? "document.pdf" : document.title();
        return new JsonObject().put("type", "file").put("file", new JsonObject().put("filename", name)
                .put("file_data", document.source().url()));
    }

    private static void writeTools(ChatRequest request, JsonObject body) {
        if (request.tools().isEmpty()) {
            return;
        }
        JsonArray tools = new JsonArray();
        for (ToolDefinition tool : request.tools()) {
            JsonObject function = new JsonObject().put("name", tool.name());
            putIfPresent(function, "description", tool.description());
            tools.add(new JsonObject().put("type", "function").put("function", function.put("parameters", tool.parameters())));
        }
        body.put("tools", tools);
        ToolChoice choice = request.toolChoice();
        if (choice == null) {
            return;
        }
        body.put("tool_choice", switch (choice.mode()) {
            case AUTO -> "auto";
            case REQUIRED -> "required";
            case NONE -> "none";
            case TOOL -> new JsonObject().put("type", "function").put("function", new JsonObject().put("name", choice.name()));
        });
        if (!choice.parallel()) {
            body.put("parallel_tool_calls", false);
        }
    }

    private static void putIfPresent(JsonObject body, String field, Object value) {
        if (value != null) {
            body.put(field, value);
        }
    }
}
