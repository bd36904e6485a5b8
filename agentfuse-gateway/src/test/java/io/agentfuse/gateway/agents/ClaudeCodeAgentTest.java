package io.agentfuse.gateway.agents;

import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.agentfuse.gateway.agents.AgentGateway.body;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claude Code 2.1.337 ({@code claude -p}), unmodified, behind the gateway with only a base URL and
 * a fake key, in front of the mock provider. Each scenario counts the requests Claude Code sent and
 * prints how long it ran; none asserts a duration.
 */
class ClaudeCodeAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();
    private static final Path HOME = AgentGateway.home("claude-code");

    @BeforeAll
    static void start() {
        AgentInstall.claude();
    }



    private AgentRun claude(String scenario, String prompt, String... options) {
        List<String> command = new ArrayList<>(List.of(AgentInstall.claude().toString(), "-p", prompt));
        command.addAll(List.of(options));
        AgentRun run = AgentRun.of(command, Map.of(
                "HOME", HOME.toString(),
                "CLAUDE_CONFIG_DIR", HOME.resolve(".claude").toString(),
                "ANTHROPIC_BASE_URL", gateway.baseUrl(),
                "ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1",
                "DISABLE_TELEMETRY", "1",
                "DISABLE_AUTOUPDATER", "1",
                "DISABLE_ERROR_REPORTING", "1"), HOME.resolve("work"));
        AgentGateway.report("claude-code", scenario, gateway.agentRequests(), run);
        return run;
    }


    @Test
    void itsDefaultModelWithASystemTurnInTheConversationIsAnswered() {
        AgentRun run = claude("plain, default model", "Say hi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        JsonObject sent = body(gateway.upstream().get(0));
        assertThat(sent.getJsonArray("messages").stream().map(m -> ((JsonObject) m).getString("role")))
                .contains("system"); // passed through as sent, on a same-dialect route
        assertThat(sent.getBoolean("stream")).isTrue();
    }

    @Test
    void aNamedModelStreamsItsAnswer() {
        AgentRun run = claude("streamed, named model", "Say hi", "--model", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.harness.mock.requestsFor("claude-sonnet-4-5")).singleElement()
                .satisfies(sent -> assertThat(body(sent).getBoolean("stream")).isTrue());
    }

    @Test
    void aToolRoundTripSendsTheToolResultBack() throws IOException {
        Path notes = HOME.resolve("work").resolve("notes.txt");
        Files.createDirectories(notes.getParent());
        Files.writeString(notes, "the answer is 42\n");
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder()
                .toolCall("toolu_1", "Read", new JsonObject().put("file_path", notes.toString())).build());

        AgentRun run = claude("tool round trip", "Read notes.txt", "--model", "claude-sonnet-4",
                "--allowedTools", "Read");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(2);
        assertThat(body(gateway.upstream().get(1)).encode()).contains("tool_result").contains("the answer is 42");
    }

    @Test
    void aFailingModelFallsBackWithinTheDialect() {
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(500).times(2).build());

        AgentRun run = claude("same-dialect fallback", "Say hi", "--model", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).hasSize(1);
    }

    @Test
    void aModelAnthropicRetiredFallsBackInsteadOfEndingTheSessionWithA404() {
        // claude-sonnet-4-20250514 was retired in June 2026: Anthropic, and the mock, answer 404 not_found_error.
        AgentRun run = claude("retired model", "Say hi", "--model", "claude-retired");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("claude-sonnet-4-20250514")).as("not retried").hasSize(1);
        assertThat(gateway.harness.mock.requestsFor("claude-haiku-4-5")).hasSize(1);
    }

    @Test
    void aFailingModelFallsBackToAnOpenAiModelWithItsContextManagementDropped() {
        gateway.harness.mock.scriptForModel("claude-cross-1", MockStep.builder().status(500).times(2).build());

        AgentRun run = claude("cross-dialect fallback", "Say hi", "--model", "claude-cross");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("gpt-4o-mini")).singleElement().satisfies(sent -> {
            assertThat(sent.path()).isEqualTo(MockProvider.OPENAI_PATH);
            assertThat(body(sent).containsKey("context_management")).isFalse();
        });
    }

    /**
     * An outage in the middle of a session with tools: the OpenAI fallback's answer — a sentence and two
     * parallel tool calls — reaches Claude Code as its own text and tool_use blocks, Claude Code runs both
     * tools, and the results go back to the fallback as one tool message each.
     */
    @Test
    void parallelToolCallsOfTheOpenAiFallbackAreRunByClaudeCodeAndTheirResultsSentBack() throws IOException {
        Path first = HOME.resolve("work").resolve("fallback-first.txt");
        Path second = HOME.resolve("work").resolve("fallback-second.txt");
        Files.createDirectories(first.getParent());
        Files.writeString(first, "the first file holds 17\n");
        Files.writeString(second, "the second file holds 29\n");
        gateway.harness.mock.scriptForModel("claude-cross-1", MockStep.builder().status(500).times(4).build());
        gateway.harness.mock.scriptForModel("gpt-4o-mini",
                MockStep.builder().text("I will read both files.")
                        .toolCall("call_1", "Read", new JsonObject().put("file_path", first.toString()))
                        .toolCall("call_2", "Read", new JsonObject().put("file_path", second.toString())).build(),
                MockStep.builder().text("The files say 17 and 29.").build());

        AgentRun run = claude("parallel tool calls of a cross-dialect fallback", "Read both fallback files",
                "--model", "claude-cross", "--allowedTools", "Read");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("The files say 17 and 29.");
        assertThat(gateway.agentRequests()).isEqualTo(2);
        List<RecordedRequest> fallback = gateway.harness.mock.requestsFor("gpt-4o-mini");
        assertThat(fallback).hasSize(2);
        List<JsonObject> messages = body(fallback.get(1)).getJsonArray("messages").stream().map(JsonObject.class::cast).toList();
        assertThat(messages).anySatisfy(message -> assertThat(message.encode()).contains("\"role\":\"assistant\"")
                .contains("I will read both files.").contains("\"id\":\"call_1\"").contains("\"id\":\"call_2\""));
        assertThat(messages).filteredOn(message -> "tool".equals(message.getString("role")))
                .extracting(message -> message.getString("tool_call_id") + " " + message.encode())
                .satisfiesExactlyInAnyOrder(
                        result -> assertThat(result).startsWith("call_1 ").contains("the first file holds 17"),
                        result -> assertThat(result).startsWith("call_2 ").contains("the second file holds 29"));
    }

    @Test
    void aPictureItReadFallsBackToAnOpenAiModelThatSeesThePicture() throws IOException {
        // A 1x1 PNG in the working directory, read by Claude Code's own Read tool as an image
        Path picture = HOME.resolve("work").resolve("pixel.png");
        Files.createDirectories(picture.getParent());
        Files.write(picture, java.util.Base64.getDecoder().decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="));
        gateway.harness.mock.scriptForModel("claude-cross-1",
                MockStep.builder().toolCall("toolu_1", "Read", new JsonObject().put("file_path", picture.toString())).build(),
                MockStep.builder().status(500).times(2).build());

        AgentRun run = claude("picture, cross-dialect fallback", "What is in pixel.png?", "--model", "claude-cross",
                "--allowedTools", "Read");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(2);
        JsonObject sent = body(gateway.harness.mock.requestsFor("gpt-4o-mini").get(0));
        assertThat(sent.encode()).contains("\"role\":\"tool\"").contains("\"image_url\"")
                .contains("data:image/png;base64,");
    }

    @Test
    void aPdfItReadFallsBackToAnOpenAiModelThatGetsThePdf() throws IOException {
        // A one-page PDF in the working directory, read by Claude Code's own Read tool
        Path pdf = HOME.resolve("work").resolve("one-page.pdf");
        Files.createDirectories(pdf.getParent());
        Files.writeString(pdf, OnePagePdf.TEXT, java.nio.charset.StandardCharsets.ISO_8859_1);
        gateway.harness.mock.scriptForModel("claude-cross-1",
                MockStep.builder().toolCall("toolu_1", "Read", new JsonObject().put("file_path", pdf.toString())).build(),
                MockStep.builder().status(500).times(2).build());

        AgentRun run = claude("pdf, cross-dialect fallback", "Summarise one-page.pdf", "--model", "claude-cross",
                "--allowedTools", "Read");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(2);
        String sent = body(gateway.harness.mock.requestsFor("gpt-4o-mini").get(0)).encode();
        assertThat(sent).contains("\"type\":\"file\"").contains("data:application/pdf;base64,");
    }

    @Test
    void aStormOfServerErrorsWithNoFallbackEndsItAfterFewRequests() {
        gateway.harness.mock.scriptForModel("claude-lone-1", MockStep.builder().status(500).times(100).build());

        AgentRun run = claude("500 storm, no fallback", "Say hi", "--model", "claude-lone");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
    }

    @Test
    void anOpenBreakerEndsItAfterFewRequests() {
        gateway.open("claude-lone");

        AgentRun run = claude("open breaker", "Say hi", "--model", "claude-lone");

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(gateway.upstream()).isEmpty();
    }

    @Test
    void aShort429IsWaitedOutByTheGateway() {
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().status(429).retryAfter("1").build());

        AgentRun run = claude("429 then answer", "Say hi", "--model", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(gateway.agentRequests()).isEqualTo(1);
        assertThat(gateway.harness.mock.requestsFor("claude-sonnet-4-5")).hasSize(2);
    }

    @Test
    void aStreamCutAfterItsFirstBytesIsAskedAgainAndAnswered() {
        gateway.harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder()
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(2).build());

        AgentRun run = claude("stream cut", "Say hi", "--model", "claude-sonnet-4");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isBetween(2L, 3L);
        assertThat(run.output()).doesNotContain("io_uring").doesNotContain("failed with error");
    }
}
