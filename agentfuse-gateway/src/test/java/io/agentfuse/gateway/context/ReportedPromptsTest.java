package io.agentfuse.gateway.context;

import io.agentfuse.gateway.context.ReportedPrompts.Calibration;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.http.ValueMemo;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reports the ladder counts by: found for a request that begins with a reported prompt of the same
 * upstream model, by content (system prompt, tools, messages), and by nothing else; held in a table
 * whose size never grows past its capacity.
 */
class ReportedPromptsTest {

    private static final String MODEL = "claude-sonnet-4-5";

    @Test
    void aRequestThatAddsAnAnswerAndAMessageToAReportedOneCountsByItsReport() {
        ReportedPrompts reports = new ReportedPrompts(64);
        ChatRequest first = request("You plan migrations.", 3, null);
        reports.record(MODEL, wholeKey(first), 1_234);

        // parsed anew, from new objects: found by content, not identity
        ChatRequest next = request("You plan migrations.", 5, null);

        assertThat(reports.find(MODEL, PromptKeys.of(next))).isEqualTo(new Calibration(3, 1_234));
        assertThat(reports.find(MODEL, PromptKeys.of(request("You plan migrations.", 3, null))))
                .as("the very prompt again").isEqualTo(new Calibration(3, 1_234));
    }

    @Test
    void anotherModelAnotherSystemPromptOtherToolsOrAnotherMessageFindNothing() {
        ReportedPrompts reports = new ReportedPrompts(64);
        reports.record(MODEL, wholeKey(request("You plan migrations.", 3, null)), 1_234);

        assertThat(reports.find("claude-opus-4-7", PromptKeys.of(request("You plan migrations.", 5, null)))).isNull();
        assertThat(reports.find(MODEL, PromptKeys.of(request("You plan backups.", 5, null)))).isNull();
        assertThat(reports.find(MODEL, PromptKeys.of(request("You plan migrations.", 5, "Read")))).isNull();
        ChatRequest edited = request("You plan migrations.", 5, null);
        JsonObject body = edited.original();
        body.getJsonArray("messages").getJsonObject(1).put("content", "Step 2, edited");
        assertThat(reports.find(MODEL, PromptKeys.of(Dialects.ANTHROPIC.parseRequest(body)))).isNull();
    }

    @Test
    void aRequestFarLongerThanTheReportedOneFindsNothing() {
        ReportedPrompts reports = new ReportedPrompts(64);
        reports.record(MODEL, wholeKey(request("You plan migrations.", 3, null)), 1_234);

        assertThat(reports.find(MODEL, PromptKeys.of(request("You plan migrations.", 7, null))))
                .as("four messages later: only a few lengths are looked up").isNotNull();
        assertThat(reports.find(MODEL, PromptKeys.of(request("You plan migrations.", 9, null)))).isNull();
    }

    @Test
    void theTableHoldsNoMoreThanItsCapacityAndKeepsTheLatestReport() {
        ReportedPrompts reports = new ReportedPrompts(64);
        PromptKeys.Prefixes[] keys = new PromptKeys.Prefixes[1_000];
        for (int i = 0; i < keys.length; i++) {
            ChatRequest prompt = request("Agent " + i + " plans migrations.", 1, null);
            keys[i] = PromptKeys.of(prompt);
            reports.record(MODEL, wholeKey(prompt), 100 + i);
        }

        int found = 0;
        for (PromptKeys.Prefixes key : keys) {
            found += reports.find(MODEL, key) == null ? 0 : 1;
        }
        assertThat(reports.capacity()).isEqualTo(64);
        assertThat(found).isBetween(1, 64);
        assertThat(reports.find(MODEL, keys[keys.length - 1])).isEqualTo(new Calibration(1, 1_099));
    }

    @Test
    void aReportOfNoTokensIsNoReport() {
        ReportedPrompts reports = new ReportedPrompts(64);
        ChatRequest prompt = request("You plan migrations.", 3, null);
        reports.record(MODEL, wholeKey(prompt), 0);

        assertThat(reports.find(MODEL, PromptKeys.of(prompt))).isNull();
    }

    @Test
    void aResentToolIsKnownByItsDecodedSchemaAndAToolOfAnotherNameOrDescriptionIsAnotherPrompt() {
        ValueMemo memo = new ValueMemo(64, 1 << 20);
        ChatRequest first = decoded(memo, "Reads a file.");
        ChatRequest resent = decoded(memo, "Reads a file.");
        ToolDefinition tool = first.tools().get(0);
        assertThat(resent.tools().get(0).parametersAsParsed()).as("the memo hands out the same schema")
                .isSameAs(tool.parametersAsParsed());

        assertThat(wholeKey(resent)).isEqualTo(wholeKey(first))
                .as("by content: the key of fresh objects")
                .isEqualTo(wholeKey(request(new JsonObject(first.original().encode()))));
        assertThat(wholeKey(decoded(memo, "Reads a file, or a range of its lines.")))
                .isNotEqualTo(wholeKey(first));
        // the same decoded schema under another name or description: not taken for the tool it keeps the key of
        assertThat(wholeKey(withTool(first, new ToolDefinition("Write", tool.description(), tool.parametersAsParsed()))))
                .isNotEqualTo(wholeKey(first));
        assertThat(wholeKey(withTool(first, new ToolDefinition("Read", null, tool.parametersAsParsed()))))
                .isNotEqualTo(wholeKey(first));
        assertThat(wholeKey(withTool(first, tool))).isEqualTo(wholeKey(first));
    }

    private static long wholeKey(ChatRequest request) {
        return PromptKeys.prompt(request).key();
    }

    private static ChatRequest withTool(ChatRequest request, ToolDefinition tool) {
        return new ChatRequest(request.dialect(), request.original(), request.model(), request.system(),
                request.messages(), List.of(tool), request.toolChoice(), request.sampling(), request.streamMode(),
                request.endUser(), request.untranslatable(), request.crossing());
    }

    /** A request with one tool described as {@code description}, its body decoded through {@code memo}. */
    private static ChatRequest decoded(ValueMemo memo, String description) {
        JsonObject schema = new JsonObject().put("type", "object").put("properties", new JsonObject()
                .put("path", new JsonObject().put("type", "string").put("description", "x".repeat(StrictJson.MEMO_FROM_BYTES))));
        JsonObject body = new JsonObject().put("model", MODEL).put("max_tokens", 10)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Step 1")))
                .put("tools", new JsonArray().add(new JsonObject().put("name", "Read").put("description", description)
                        .put("input_schema", schema)));
        return request((JsonObject) StrictJson.decode(Buffer.buffer(body.encode()), new StrictJson.FieldSpans(), memo));
    }

    private static ChatRequest request(JsonObject body) {
        return Dialects.ANTHROPIC.parseRequest(body);
    }

    /** A request of {@code system}, {@code messages} alternating user and assistant messages, and a tool named {@code tool} if any. */
    private static ChatRequest request(String system, int messages, String tool) {
        JsonArray turns = new JsonArray();
        for (int i = 1; i <= messages; i++) {
            turns.add(new JsonObject().put("role", i % 2 == 1 ? "user" : "assistant").put("content", "Step " + i));
        }
        JsonObject body = new JsonObject().put("model", MODEL).put("max_tokens", 10).put("system", system)
                .put("messages", turns);
        if (tool != null) {
            body.put("tools", new JsonArray().add(new JsonObject().put("name", tool)
                    .put("input_schema", new JsonObject().put("type", "object"))));
        }
        return Dialects.ANTHROPIC.parseRequest(body);
    }
}
