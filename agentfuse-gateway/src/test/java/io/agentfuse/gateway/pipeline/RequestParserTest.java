package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestParserTest {

    private static final AgentfuseConfig CONFIG = ConfigLoader.parse(GatewayHarness.CONFIG, "test.yaml", Map.of("MOCK_PORT", "1"));
    private static final AgentfuseRuntime RUNTIME = AgentfuseRuntime.builder(CONFIG).build();

    private static ModelRequest parse(Dialect dialect, String body, String subagent) {
        return RequestParser.parse(dialect, Buffer.buffer(body), subagent, CONFIG, RUNTIME::model);
    }

    @Test
    void parsesARequestForAConfiguredModel() {
        ModelRequest request = parse(Dialects.OPENAI, GatewayHarness.openAiRequest("gpt-4o-mini", true).encode(), null);

        assertThat(request.model().name()).isEqualTo("gpt-4o-mini");
        assertThat(request.dialect()).isEqualTo(Dialects.OPENAI);
        assertThat(request.chat().stream()).isTrue();
        assertThat(request.fromSubagent()).isFalse();
    }

    @Test
    void takesTheSubagentIdFromTheHeaderAndIgnoresABlankOne() {
        String body = GatewayHarness.anthropicRequest("claude-haiku-4", false).encode();

        assertThat(parse(Dialects.ANTHROPIC, body, " researcher ").subagent()).isEqualTo("researcher");
        assertThat(parse(Dialects.ANTHROPIC, body, "  ").fromSubagent()).isFalse();
    }

    @Test
    void anEmptyBodyIsAnInvalidRequest() {
        assertThatThrownBy(() -> parse(Dialects.OPENAI, "", null))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error()).isEqualTo(GatewayError.INVALID_REQUEST));
    }

    @Test
    void aTruncatedBodySaysWhatIsWrongAndWhereWithoutTheParsersInternals() {
        String truncated = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"";

        assertThatThrownBy(() -> parse(Dialects.OPENAI, truncated, null))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "the request body is not valid JSON: unexpected end-of-input: expected close marker for"
                                + " Object (start marker at line 1, column 36) at line 1, column 65"));
    }

    @Test
    void aMisspelledLiteralNamesTheTokenAndWhere() {
        assertThatThrownBy(() -> parse(Dialects.OPENAI, "{\"model\": tru}", null))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage())
                        .startsWith("the request body is not valid JSON: unrecognized token 'tru'")
                        .endsWith("at line 1, column 15").doesNotContain("Source", "REDACTED", "\n"));
    }

    @Test
    void aJsonArrayIsAnInvalidRequest() {
        assertThatThrownBy(() -> parse(Dialects.OPENAI, "[1, 2]", null))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.getMessage()).contains("JSON object"));
    }

    @Test
    void anUnknownModelIsModelNotFoundListingTheConfiguredOnes() {
        assertThatThrownBy(() -> parse(Dialects.OPENAI, GatewayHarness.openAiRequest("llama-9", false).encode(), null))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error()).isEqualTo(GatewayError.MODEL_NOT_FOUND);
                    assertThat(e.getMessage()).contains("llama-9").contains("claude-sonnet-4, claude-haiku-4, gpt-4o-mini");
                });
    }

    @Test
    void aModelOfABuiltInFamilyNeedsNoEntry() {
        ModelRequest request = parse(Dialects.OPENAI, GatewayHarness.openAiRequest("gpt-4.1-mini", false).encode(), null);

        assertThat(request.model().name()).isEqualTo("gpt-4.1-mini");
        assertThat(request.model().provider()).isEqualTo("openai");
        assertThat(request.model().contextWindow()).isEqualTo(1_047_576);
    }
}
