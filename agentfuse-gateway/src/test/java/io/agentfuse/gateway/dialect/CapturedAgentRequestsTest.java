package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Requests the real agents sent, captured with secrets and ids removed
 * ({@code src/test/resources/agent-requests}; how to refresh them: {@code src/test/agents/README.md}),
 * held to the translation table: within their dialect they pass through as sent; across, what does
 * not change the answer is dropped and named, equivalents are translated, and provider-run tools
 * make a strict step untranslatable.
 */
class CapturedAgentRequestsTest {

    private static JsonObject body(String fixture) {
        try (InputStream in = CapturedAgentRequestsTest.class.getResourceAsStream("/agent-requests/" + fixture)) {
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getJsonObject("body");
        } catch (IOException e) {
            throw new AssertionError("cannot read fixture " + fixture, e);
        }
    }

    @Test
    void claudeCodesRequestPassesThroughToAnthropicAsSent() {
        JsonObject sent = body("claude-code-2.1.332.json");
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(sent);

        JsonObject upstream = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-opus-5-5");

        assertThat(upstream.getJsonArray("messages")).isEqualTo(sent.getJsonArray("messages"));
        assertThat(upstream.getJsonObject("context_management")).isEqualTo(sent.getJsonObject("context_management"));
        assertThat(DialectTranslator.dropped(request, Dialects.ANTHROPIC, false)).isEmpty();
    }

    @Test
    void claudeCodesRequestCrossesToOpenAiWithItsSystemTurnFoldedAndHintsDropped() {
        ChatRequest request = Dialects.ANTHROPIC.parseRequest(body("claude-code-2.1.332.json"));

        JsonObject upstream = DialectTranslator.upstreamRequest(request, Dialects.OPENAI, "gpt-4o-mini");

        assertThat(request.untranslatable()).isEmpty();
        assertThat(DialectTranslator.dropped(request, Dialects.OPENAI, false))
                .contains("context_management", "metadata", "thinking", "output_config");
        JsonArray messages = upstream.getJsonArray("messages");
        assertThat(messages.getJsonObject(0).getString("role")).isEqualTo("system");
        assertThat(messages.getJsonObject(0).getString("content")).contains("# Environment");
        assertThat(messages.stream().map(m -> ((JsonObject) m).getString("role"))).doesNotContain("developer")
                .filteredOn("system"::equals).hasSize(1);
        assertThat(upstream.containsKey("context_management")).isFalse();
        assertThat(upstream.getJsonArray("tools")).hasSize(request.tools().size());
    }

    @Test
    void codexsRequestPassesThroughToOpenAiAsSent() {
        JsonObject sent = body("codex-0.171.0.json");
        ChatRequest request = Dialects.RESPONSES.parseRequest(sent);

        JsonObject upstream = DialectTranslator.upstreamRequest(request, Dialects.RESPONSES, "gpt-5-codex");

        assertThat(upstream.getJsonObject("client_metadata")).isEqualTo(sent.getJsonObject("client_metadata"));
        assertThat(upstream.getJsonArray("tools")).isEqualTo(sent.getJsonArray("tools"));
    }

    @Test
    void codexsWebSearchKeepsItFromAStrictClaudeStep() {
        ChatRequest request = Dialects.RESPONSES.parseRequest(body("codex-0.171.0.json"));

        assertThat(request.untranslatable()).isEmpty();
        assertThatThrownBy(() -> DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5", false))
                .isInstanceOf(UntranslatableException.class).hasMessageContaining("'web_search' tools")
                .hasMessageNotContaining("client_metadata").hasMessageNotContaining("namespace");
    }

    @Test
    void codexsRequestCrossesToALenientClaudeStepWithNamespacesFlattenedAndMetadataDropped() {
        ChatRequest request = Dialects.RESPONSES.parseRequest(body("codex-0.171.0.json"));

        JsonObject upstream = DialectTranslator.upstreamRequest(request, Dialects.ANTHROPIC, "claude-haiku-4-5", true);

        assertThat(DialectTranslator.dropped(request, Dialects.ANTHROPIC, true))
                .contains("client_metadata", "store", "include", "prompt_cache_key", "reasoning", "web_search tool");
        assertThat(upstream.getJsonArray("tools").stream().map(tool -> ((JsonObject) tool).getString("name")))
                .contains("exec_command").anyMatch(name -> name.startsWith("multi_agent_v1__"))
                .doesNotContain("web_search");
        assertThat(upstream.containsKey("client_metadata")).isFalse();
        assertThat(upstream.getString("system")).isNotBlank();
    }
}
