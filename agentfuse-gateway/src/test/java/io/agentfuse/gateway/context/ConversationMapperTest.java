package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.RawBlock;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.ToolResultBlock;
import io.agentfuse.agent.conversation.ToolUseBlock;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.MediaSource;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConversationMapperTest {

    @Test
    void theBoundKnownAtOnceIsTheBoundOnceEveryTextWasBounded() {
        // Given a conversation with a tool call and its result, never bounded
        TokenCounter counter = TokenCounter.forModel("claude-haiku-4-5");
        String code = "int main() { return 0; }\n".repeat(40);
        ChatRequest request = openAiRequest(
                message("system", "Be brief. " + code),
                message("user", "Compile this: " + code),
                new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                        .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                new JsonObject().put("name", "compile").put("arguments", "{\"source\":\"" + code.replace("\n", "\\n") + "\"}")))),
                new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "ok " + code));

        // Then it is not known at once before, and is the very bound after
        assertThat(ConversationMapper.knownUpperBound(request, counter)).isEqualTo(-1);
        long bound = ConversationMapper.upperBound(request, counter);
        assertThat(ConversationMapper.knownUpperBound(request, counter)).isEqualTo(bound);
    }

    @Test
    void aMessageRemembersItsBoundForTheCounterThatTookItOnly() {
        // Given a request bounded by one counter
        TokenCounter counter = TokenCounter.forModel("gpt-4o");
        String code = "for (int i = 0; i < n; i++) { sum += i; }\n".repeat(30);
        ChatRequest request = openAiRequest(message("user", "Explain: " + code), message("assistant", "It sums: " + code));
        long bound = ConversationMapper.upperBound(request, counter);

        // Then its messages carry their bounds for that counter, which add up to the request's
        long carried = request.messages().stream().mapToLong(message -> message.measured(counter)).sum();
        assertThat(request.messages()).allMatch(message -> message.measured(counter) > 0);
        assertThat(carried + TokenCounter.TOKENS_PER_REPLY).isEqualTo(bound);
        // and another counter (another encoding's, or one made afresh) is not answered from them
        TokenCounter other = TokenCounter.forModel("claude-haiku-4-5");
        assertThat(request.messages()).allMatch(message -> message.measured(other) == -1);
        assertThat(ConversationMapper.knownUpperBound(request, other)).isEqualTo(-1);
        assertThat(ConversationMapper.upperBound(request, other)).isEqualTo(ConversationMapper.upperBound(
                Dialects.OPENAI.parseRequest(request.received().copy()), other));
    }

    @Test
    void aMessageEqualsAnotherByRoleAndContentWhateverWasMeasuredOfIt() {
        ChatMessage measured = new ChatMessage(ChatMessage.Role.USER, List.of(new ContentPart.Text("hello")));
        ChatMessage fresh = new ChatMessage(ChatMessage.Role.USER, List.of(new ContentPart.Text("hello")));
        measured.remember(this, 7);

        assertThat(measured).isEqualTo(fresh).hasSameHashCodeAs(fresh);
        assertThat(measured.measured(this)).isEqualTo(7);
        assertThat(fresh.measured(this)).isEqualTo(-1);
        assertThatThrownBy(() -> measured.remember(this, -1)).isInstanceOf(IllegalArgumentException.class);
        measured.remember("another measurer", 9);
        assertThat(measured.measured(this)).isEqualTo(-1);
    }

    @Test
    void toolCallsAndTheirResultsKeepTheirIdsSoSnippingCanKeepThemTogether() {
        ChatRequest request = Dialects.OPENAI.parseRequest(new JsonObject()
                .put("model", "gpt-4o")
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "system").put("content", "Be brief."))
                        .add(new JsonObject().put("role", "user").put("content", "Weather in Paris?"))
                        .add(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                                .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                        new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}")))))
                        .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "18 C"))));

        Conversation conversation = ConversationMapper.toConversation(request);

        assertThat(conversation.messages()).extracting(Message::role)
                .containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER);
        assertThat(conversation.get(2).content()).containsExactly(new ToolUseBlock("call_1", "get_weather", "{\"city\":\"Paris\"}"));
        assertThat(conversation.get(3).content()).containsExactly(new ToolResultBlock("call_1", "18 C", false));
    }

    @Test
    void anAnthropicBodyGetsTheNewSystemAndMessagesAndKeepsItsOtherFields() {
        // Given an Anthropic request with metadata and a system prompt
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(new JsonObject()
                .put("model", "claude-haiku-4").put("max_tokens", 256).put("system", "Be brief.")
                .put("metadata", new JsonObject().put("user_id", "u-1"))
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "first question"))
                        .add(new JsonObject().put("role", "assistant").put("content", "first answer"))
                        .add(new JsonObject().put("role", "user").put("content", "second question"))));

        // When its conversation is replaced by a shorter one
        Conversation shorter = new Conversation(List.of(Message.system("Be brief."),
                Message.user("[agentfuse] 2 earlier messages were removed to fit the context window."),
                Message.user("second question")));
        ChatRequest compacted = ConversationMapper.withConversation(request, shorter);

        // Then the body carries the new messages, the system prompt and the untouched metadata
        JsonObject body = compacted.original();
        assertThat(body.getString("system")).isEqualTo("Be brief.");
        assertThat(body.getJsonObject("metadata").getString("user_id")).isEqualTo("u-1");
        assertThat(body.getInteger("max_tokens")).isEqualTo(256);
        assertThat(body.getJsonArray("messages").encode()).contains("[agentfuse] 2 earlier").contains("second question")
                .doesNotContain("first answer");
        assertThat(compacted.messages()).hasSize(2);
    }

    @Test
    void aToolResultsImageAndDocumentSurviveARewriteInTheCallersDialectAndAreCounted() {
        // Given Claude Code's turn after it read a screenshot and a PDF
        JsonObject image = new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                .put("media_type", "image/png").put("data", "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"));
        JsonObject document = new JsonObject().put("type", "document").put("source", new JsonObject().put("type", "base64")
                .put("media_type", "application/pdf").put("data", "JVBERi0xLjQK"));
        JsonArray results = new JsonArray()
                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1")
                        .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", "shot.png")).add(image)))
                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_2")
                        .put("content", new JsonArray().add(document)));
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude-haiku-4").put("max_tokens", 256)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Read both."))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                                .add(toolUse("toolu_1", "shot.png")).add(toolUse("toolu_2", "spec.pdf"))))
                        .add(new JsonObject().put("role", "user").put("content", results))));

        // When the ladder carries it to a conversation and writes it back, unchanged
        Conversation conversation = ConversationMapper.toConversation(request);
        ChatRequest rewritten = ConversationMapper.withConversation(request, conversation);

        // Then both tool results are as the caller sent them
        assertThat(rewritten.original().getJsonArray("messages").getJsonObject(2).getJsonArray("content")).isEqualTo(results);
        // and the image counts as an image, the document as its JSON
        TokenCounter counter = TokenCounter.forModel("claude-haiku-4-5");
        ToolResultBlock screenshot = (ToolResultBlock) conversation.get(2).content().get(0);
        assertThat(screenshot.attachments()).hasSize(1);
        assertThat(counter.countBlock(screenshot)).isEqualTo(counter.countText("toolu_1") + counter.countText("shot.png")
                + counter.countBlock(screenshot.attachments().get(0)));
        assertThat(ConversationMapper.upperBound(request, counter)).isGreaterThanOrEqualTo(counter.countConversation(conversation));
    }

    /**
     * A screenshot's data reaches the conversation the context ladder measures in one copy: its raw
     * block's text, of the very form the encoder writes. Built from the data URL and encoded, a
     * 4.8 MB screenshot cost some four times its size.
     */
    @Test
    void aScreenshotReachesTheConversationInOneCopyOfItsData() {
        byte[] png = new byte[3_600_000];
        new java.util.Random(7).nextBytes(png);
        String base64 = java.util.Base64.getEncoder().encodeToString(png);
        ChatRequest anthropic = Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude").put("max_tokens", 64)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                                .put("media_type", "image/png").put("data", base64)))))));
        ChatRequest openAi = openAiRequest(new JsonObject().put("role", "user").put("content", new JsonArray()
                .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject()
                        .put("url", "data:image/png;base64," + base64)))));
        String encoded = new JsonObject().put("url", "data:image/png;base64," + base64).encode();

        for (ChatRequest request : List.of(anthropic, openAi)) {
            ConversationMapper.toConversation(request); // classes loaded
            long before = allocatedByThisThread();
            Conversation conversation = ConversationMapper.toConversation(request);
            long allocated = allocatedByThisThread() - before;

            RawBlock block = (RawBlock) conversation.get(0).content().get(0);
            assertThat(block.json().equals(encoded)).as("the encoder's text of the %s image", request.dialect()).isTrue();
            assertThat(allocated).as("bytes allocated to map the %s request", request.dialect())
                    .isLessThan(base64.length() * 5L / 4);
        }
    }

    @Test
    void mediaBlocksAreTheEncodersTextWhateverTheirData() {
        List<MediaSource> sources = List.of(MediaSource.Inline.of("image/png", "iVBOR"), MediaSource.of("data:image/png;base64,iVBOR"),
                MediaSource.Inline.of("image/\"png", "iV\"BOR"), MediaSource.Inline.of("image/png", "iV\u0001BOR"),
                MediaSource.of("data:application/pdf;base64,JVBE\\Ri0"), MediaSource.of("https://example.com/a.png"),
                MediaSource.of("data:text/plain,h\u00e9llo"));

        for (MediaSource source : sources) {
            assertThat(MediaBlockJson.of(source)).as(source.toString())
                    .isEqualTo(new JsonObject().put("url", source.url()).encode());
            assertThat(MediaBlockJson.ofDocument(source, "spec \"v2\".pdf")).as(source.toString())
                    .isEqualTo(new JsonObject().put("url", source.url()).put("title", "spec \"v2\".pdf").encode());
            assertThat(MediaBlockJson.ofDocument(source, null)).as(source.toString())
                    .isEqualTo(new JsonObject().put("url", source.url()).put("title", null).encode());
        }
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    private static JsonObject toolUse(String id, String file) {
        return new JsonObject().put("type", "tool_use").put("id", id).put("name", "Read")
                .put("input", new JsonObject().put("file_path", file));
    }

    /** An OpenAI Chat Completions request for model "m" with these messages, parsed. */
    private static ChatRequest openAiRequest(JsonObject... messages) {
        JsonArray array = new JsonArray();
        for (JsonObject message : messages) {
            array.add(message);
        }
        return Dialects.OPENAI.parseRequest(new JsonObject().put("model", "m").put("messages", array));
    }

    private static JsonObject message(String role, String content) {
        return new JsonObject().put("role", role).put("content", content);
    }
}
