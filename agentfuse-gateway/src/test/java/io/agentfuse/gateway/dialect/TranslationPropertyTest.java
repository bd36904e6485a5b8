package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.dialect.ChatMessage.Role;
import io.agentfuse.gateway.dialect.ChatRequest.Sampling;
import io.agentfuse.gateway.dialect.ChatRequest.StreamMode;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of request translation over generated agent conversations (text, images, tool calls and results). */
class TranslationPropertyTest {

    @Property(tries = 200)
    void writingWhatWasParsedIsStableInEachDialect(@ForAll("conversations") ChatRequest conversation) {
        for (Dialect dialect : Dialects.all()) {
            JsonObject written = dialect.writeRequest(conversation, "m");

            // Gemini's body names no model (its path does, and its endpoint adds it to the body): "m" as the others write it.
            JsonObject rewritten = dialect.writeRequest(dialect.parseRequest(written.copy().put("model", "m")), "m");

            assertThat(rewritten).isEqualTo(written);
        }
    }

    @Property(tries = 200)
    void passingThroughAnthropicLosesNothingOpenAiCanExpress(@ForAll("conversations") ChatRequest conversation) {
        JsonObject direct = Dialects.OPENAI.writeRequest(conversation, "m");

        ChatRequest viaAnthropic = Dialects.ANTHROPIC.parseRequest(Dialects.ANTHROPIC.writeRequest(conversation, "m"));

        assertThat(Dialects.OPENAI.writeRequest(viaAnthropic, "m").put("max_completion_tokens", 10))
                .isEqualTo(direct.put("max_completion_tokens", 10));
    }

    @Property(tries = 200)
    void passingThroughOpenAiLosesOnlyTheToolErrorFlag(@ForAll("conversations") ChatRequest conversation) {
        // OpenAI tool messages have no error flag; the writer carries it as an "Error: " prefix instead.
        JsonObject direct = Dialects.ANTHROPIC.writeRequest(withToolErrorsAsText(conversation), "m");

        ChatRequest viaOpenAi = Dialects.OPENAI.parseRequest(Dialects.OPENAI.writeRequest(conversation, "m"));

        assertThat(Dialects.ANTHROPIC.writeRequest(viaOpenAi, "m")).isEqualTo(direct);
    }

    private static ChatRequest withToolErrorsAsText(ChatRequest request) {
        List<ChatMessage> messages = request.messages().stream().map(message -> new ChatMessage(message.role(),
                message.content().stream().map(part -> part instanceof ContentPart.ToolResult result && result.isError()
                        ? new ContentPart.ToolResult(result.toolCallId(), "Error: " + result.content(), false)
                        : part).toList())).toList();
        return new ChatRequest(request.dialect(), request.original(), request.model(), request.system(), messages,
                request.tools(), request.toolChoice(), request.sampling(), request.streamMode(), request.endUser(),
                request.untranslatable());
    }

    @Provide
    Arbitrary<ChatRequest> conversations() {
        Arbitrary<String> system = text().injectNull(0.3);
        Arbitrary<List<List<ContentPart>>> exchanges = exchange().list().ofMinSize(1).ofMaxSize(4);
        return Combinators.combine(system, exchanges).as((prompt, turns) -> {
            List<ChatMessage> messages = new ArrayList<>();
            int callNumber = 0;
            List<ContentPart> pendingResults = new ArrayList<>();
            for (List<ContentPart> assistantParts : turns) {
                List<ContentPart> user = new ArrayList<>(pendingResults);
                pendingResults.clear();
                user.add(new ContentPart.Text("question " + messages.size()));
                if (callNumber % 2 == 1) {
                    user.add(new ContentPart.Image("data:image/png;base64,iVBORw0KGgo="));
                }
                messages.add(new ChatMessage(Role.USER, user));
                List<ContentPart> assistant = new ArrayList<>();
                for (ContentPart part : assistantParts) {
                    if (part instanceof ContentPart.ToolCall call) {
                        String id = "call_" + callNumber++;
                        assistant.add(new ContentPart.ToolCall(id, call.name(), call.arguments()));
                        pendingResults.add(new ContentPart.ToolResult(id, "result of " + id, callNumber % 3 == 0));
                    } else {
                        assistant.add(part);
                    }
                }
                messages.add(new ChatMessage(Role.ASSISTANT, assistant));
            }
            if (!pendingResults.isEmpty()) {
                messages.add(new ChatMessage(Role.USER, pendingResults));
            }
            return new ChatRequest(Dialects.OPENAI, new JsonObject(), "m", prompt, messages, List.of(), null,
                    new Sampling(10, null, null, List.of()), StreamMode.NONE, null, List.of());
        });
    }

    /** An assistant turn: optional text, then zero to two tool calls; never empty. */
    private Arbitrary<List<ContentPart>> exchange() {
        Arbitrary<ContentPart> call = Combinators.combine(Arbitraries.of("search", "get_weather"), text())
                .as((name, query) -> new ContentPart.ToolCall("placeholder", name, new JsonObject().put("q", query).encode()));
        return Combinators.combine(text().injectNull(0.4), call.list().ofMaxSize(2)).as((text, calls) -> {
            List<ContentPart> parts = new ArrayList<>();
            if (text != null || calls.isEmpty()) {
                parts.add(new ContentPart.Text(text != null ? text : "ok"));
            }
            parts.addAll(calls);
            return parts;
        });
    }

    private static Arbitrary<String> text() {
        return Arbitraries.strings().withCharRange('a', 'z').withChars(' ', 'é', '€', '"', '\\', '\n')
                .ofMinLength(1).ofMaxLength(12).filter(s -> !s.isBlank());
    }
}
