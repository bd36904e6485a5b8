package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FieldReader;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The elements of a Chat Completions {@code messages} array that the neutral model has no message
 * for, kept in place for a request rewritten within its own dialect: a legacy functions API
 * {@code role: "function"} message (nothing crosses for it), and each {@code system} or
 * {@code developer} message (hoisted into the system prompt, as every other dialect holds it; as
 * sent, a leading one keeps its role, its {@code name} and its content parts, which the joined
 * prompt does not). Each rides in the {@linkplain ChatMessage#originIn origin} of a
 * neighbouring message, which a Chat Completions writer sends as it came: a function message with
 * the message before it (the assistant's {@code function_call}), a system message with the message
 * after it (the turns it speaks to). Compaction keeps or drops a rider with its message, and the
 * writer leaves the text of each system message it writes in place out of the leading system
 * message ({@link #leadingSystem}), so that it is said once, where the caller said it. Without a
 * neighbour (a conversation of such elements alone, or the leading ones of a conversation whose
 * first message compaction dropped) an element is left out; a system message's words then stay in
 * the leading system message. A function message is counted with the message it rides with, which
 * holds its JSON as an {@link ContentPart.Opaque} part (only ever written in this dialect, as its origin).
 *
 * <p>Collects one request's messages in order; not thread-safe.
 */
final class OpenAiRiders {

    /** What {@link ChatRequest#systemPrompt} joins the parts of a system prompt with. */
    private static final String PARTS = "\n\n";

    private final List<ChatMessage> messages = new ArrayList<>();
    private final List<JsonObject> waiting = new ArrayList<>();
    /** What the waiting riders count, for the message they will ride with. */
    private final List<ContentPart> waitingCounted = new ArrayList<>();

    /** A message of the neutral model, with the riders that wait for the next message before it. */
    void message(ChatMessage message) {
        if (messages.isEmpty() && waiting.size() == 1 && saidByPrompt(waiting.get(0))) {
            waiting.clear(); // the writer's leading system message says it as sent; the message stays the memo's
        }
        if (waiting.isEmpty()) {
            messages.add(message);
            return;
        }
        List<JsonObject> origin = new ArrayList<>(waiting);
        origin.addAll(message.originIn(OpenAiDialect.INSTANCE));
        List<ContentPart> content = new ArrayList<>(waitingCounted);
        content.addAll(message.content());
        waiting.clear();
        waitingCounted.clear();
        messages.add(withOrigin(message, content, origin));
    }

    /** A {@code system} or {@code developer} message: it rides with the message after it, a leading one too. */
    void system(JsonObject element) {
        waiting.add(element);
    }

    /**
     * An element that is no message of the neutral model: it rides with the message before it, which
     * counts it by {@code counted} (a legacy function result's JSON: left out, a conversation of tool
     * output passed the context ladder and the budgets as if empty); {@code null} when it counts nothing.
     */
    void unread(JsonObject element, ContentPart counted) {
        if (messages.isEmpty() || !waiting.isEmpty()) {
            waiting.add(element); // after a waiting system message, it keeps its place after it
            if (counted != null) {
                waitingCounted.add(counted);
            }
            return;
        }
        ChatMessage before = messages.remove(messages.size() - 1);
        List<JsonObject> origin = new ArrayList<>(before.originIn(OpenAiDialect.INSTANCE));
        origin.add(element);
        List<ContentPart> content = new ArrayList<>(before.content());
        if (counted != null) {
            content.add(counted);
        }
        messages.add(withOrigin(before, content, origin));
    }

    /** Whether {@code element} is a system message as the writer writes the system prompt: a role and a text alone. */
    private static boolean saidByPrompt(JsonObject element) {
        return element.size() == 2 && "system".equals(element.getValue("role")) && element.getValue("content") instanceof String;
    }

    /** The messages, the riders still waiting put after the last one. */
    List<ChatMessage> messages() {
        if (!waiting.isEmpty() && !messages.isEmpty()) {
            ChatMessage last = messages.remove(messages.size() - 1);
            List<JsonObject> origin = new ArrayList<>(last.originIn(OpenAiDialect.INSTANCE));
            origin.addAll(waiting);
            List<ContentPart> content = new ArrayList<>(last.content());
            content.addAll(waitingCounted);
            messages.add(withOrigin(last, content, origin));
        }
        waiting.clear();
        waitingCounted.clear();
        return messages;
    }

    private static ChatMessage withOrigin(ChatMessage message, List<ContentPart> content, List<JsonObject> origin) {
        return new ChatMessage(message.role(), content, OpenAiDialect.INSTANCE, origin);
    }

    /**
     * The system prompt of {@code request} less the system messages that ride in its messages'
     * origins, which the writer sends where they were. The prompt joins its parts in order
     * ({@link ChatRequest#systemPrompt}), the riders after the leading ones; each rider's text is
     * taken out from the end, so that a rider whose message compaction dropped stays in the prompt,
     * said once there. A text not found (a prompt someone rewrote) is left in: said twice, not lost.
     */
    static String leadingSystem(ChatRequest request) {
        String system = request.system();
        List<String> riding = new ArrayList<>();
        for (ChatMessage message : request.messages()) {
            for (JsonObject element : message.originIn(OpenAiDialect.INSTANCE)) {
                Object role = element.getValue("role");
                if ("system".equals(role) || "developer".equals(role)) {
                    riding.add(OpenAiRequestParser.text(FieldReader.root(element), "content", true));
                }
            }
        }
        for (int i = riding.size() - 1; i >= 0 && system != null; i--) {
            system = without(system, riding.get(i));
        }
        return system;
    }

    /** {@code prompt} less its last part that is {@code part} (parts are joined by a blank line); null when none is left. */
    private static String without(String prompt, String part) {
        if (prompt.equals(part)) {
            return null;
        }
        for (int at = prompt.lastIndexOf(PARTS + part); at >= 0; at = prompt.lastIndexOf(PARTS + part, at - 1)) {
            int end = at + PARTS.length() + part.length();
            if (end == prompt.length() || prompt.startsWith(PARTS, end)) {
                return prompt.substring(0, at) + prompt.substring(end);
            }
        }
        return prompt.startsWith(part + PARTS) ? prompt.substring(part.length() + PARTS.length()) : prompt;
    }
}
