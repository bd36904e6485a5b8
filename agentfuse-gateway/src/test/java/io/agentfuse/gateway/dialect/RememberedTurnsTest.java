package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.http.ValueMemo;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resent conversation is parsed from the messages remembered the turn before, and says
 * exactly what parsing it afresh says — including reasons it cannot be translated, which name the
 * message's place in this request.
 */
class RememberedTurnsTest {

    private final ValueMemo memo = new ValueMemo(1024, 1 << 22);

    @Test
    void aResentConversationIsParsedFromTheTurnsOfItsRememberedMessages() {
        // Given a long conversation parsed once
        JsonObject body = conversation(0);
        ChatRequest first = parse(body);

        // When it comes again
        ChatRequest again = parse(body);

        // Then its messages are the very turns of the first time (but the last, whose audio part is
        // noted by its place), and say what a fresh parse says
        assertThat(again.messages()).hasSameSizeAs(first.messages());
        int last = first.messages().size() - 1;
        for (int i = 0; i < last; i++) {
            assertThat(again.messages().get(i)).isSameAs(first.messages().get(i));
        }
        assertThat(again.messages().get(last)).isNotSameAs(first.messages().get(last));
        ChatRequest fresh = Dialects.OPENAI.parseRequest(body);
        assertThat(again.messages()).isEqualTo(fresh.messages());
        assertThat(again.system()).isEqualTo(fresh.system()).isSameAs(first.system());
        assertThat(again.untranslatable()).isEqualTo(fresh.untranslatable());
    }

    @Test
    void aMessageThatCannotBeTranslatedIsNamedAtItsPlaceInEachRequest() {
        // Given a conversation whose last message (the fifth) has an audio part, parsed once
        parse(conversation(0));

        // When the same messages come with one more in front of them
        ChatRequest shifted = parse(conversation(1));

        // Then the audio part is named where it is now
        assertThat(shifted.untranslatable()).containsExactly("messages[5].content[1].type 'input_audio' parts");
        assertThat(shifted.untranslatable()).isEqualTo(Dialects.OPENAI.parseRequest(conversation(1)).untranslatable());
    }

    @Test
    void aResentAnthropicConversationIsParsedFromItsRememberedMessages() {
        // Given a long Anthropic conversation with a tool call, parsed once
        String code = "fn main() { println!(\"hi\"); }\n".repeat(300);
        JsonObject body = new JsonObject().put("model", "claude-haiku-4").put("max_tokens", 512).put("system", code)
                .put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", "Run it. " + code))
                        .add(new JsonObject().put("role", "assistant").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_use").put("id", "toolu_1").put("name", "run")
                                        .put("input", new JsonObject().put("command", "cargo run " + code)))))
                        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                                .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1")
                                        .put("content", "hi\n" + code)))));
        ChatRequest first = parse(Dialects.ANTHROPIC, body);

        // When it comes again
        ChatRequest again = parse(Dialects.ANTHROPIC, body);

        // Then every message is the very one of the first time, as a fresh parse would say it
        for (int i = 0; i < first.messages().size(); i++) {
            assertThat(again.messages().get(i)).isSameAs(first.messages().get(i));
        }
        assertThat(again.messages()).isEqualTo(Dialects.ANTHROPIC.parseRequest(body).messages());
    }

    @Test
    void aResentResponsesInputIsParsedFromItsRememberedItemsAndJoinedAsBefore() {
        // Given Responses input items where an assistant's text and its call make one turn, parsed once
        String code = "def main():\n    print('hi')\n".repeat(300);
        JsonObject body = new JsonObject().put("model", "gpt-4o-mini").put("input", new JsonArray()
                .add(new JsonObject().put("role", "developer").put("content", "Be brief. " + code))
                .add(new JsonObject().put("role", "user").put("content", "Run it. " + code))
                .add(new JsonObject().put("role", "assistant").put("content", "Running it. " + code))
                .add(new JsonObject().put("type", "function_call").put("call_id", "c1").put("name", "run")
                        .put("arguments", "{\"file\":\"main.py\"}"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "c1").put("output", "hi " + code)));
        ChatRequest first = parse(Dialects.RESPONSES, body);

        // When it comes again
        ChatRequest again = parse(Dialects.RESPONSES, body);

        // Then it says what a fresh parse says, and the user's message is the very one of the first time
        ChatRequest fresh = Dialects.RESPONSES.parseRequest(body);
        assertThat(again.messages()).isEqualTo(fresh.messages()).hasSize(3);
        assertThat(again.messages().get(1).content()).hasSize(2);
        assertThat(again.system()).isEqualTo(fresh.system());
        assertThat(again.messages().get(0)).isSameAs(first.messages().get(0));
    }

    private ChatRequest parse(JsonObject body) {
        return parse(Dialects.OPENAI, body);
    }

    private ChatRequest parse(Dialect dialect, JsonObject body) {
        JsonObject decoded = (JsonObject) StrictJson.decode(Buffer.buffer(body.encode()), new StrictJson.FieldSpans(), memo);
        return dialect.parseRequest(decoded);
    }

    /** Long enough to be decoded through the memo; {@code extra} short greetings go first. */
    private static JsonObject conversation(int extra) {
        String code = "public final class Example { int value() { return 42; } }\n".repeat(60);
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", "Be brief. " + code));
        for (int i = 0; i < extra; i++) {
            messages.add(new JsonObject().put("role", "user").put("content", "hello " + i));
        }
        messages.add(new JsonObject().put("role", "user").put("content", "Read the file. " + code))
                .add(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", new JsonArray()
                        .add(new JsonObject().put("id", "call_1").put("type", "function").put("function",
                                new JsonObject().put("name", "read_file").put("arguments", "{\"path\":\"Example.java\"}")))))
                .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", code))
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "And this recording? " + code))
                        .add(new JsonObject().put("type", "input_audio").put("input_audio",
                                new JsonObject().put("data", "AAAA").put("format", "wav")))));
        return new JsonObject().put("model", "gpt-4o-mini").put("messages", messages);
    }
}
