package io.agentfuse.gateway.agents;

import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official OpenAI and Anthropic Node SDKs, the OpenAI Agents SDK and the Vercel AI SDK, at their
 * default settings (two retries each), through the gateway with nothing left to try: each ends by
 * itself after at most three requests. Each call is {@code src/test/agents/sdk-client.mjs}; the
 * figures are printed, not asserted.
 */
class NodeSdkAgentTest {

    @RegisterExtension
    static final AgentGateway gateway = new AgentGateway();

    @BeforeAll
    static void start() {
        AgentInstall.home();
    }



    private AgentRun call(String client, String model, String scenario) {
        AgentRun run = AgentRun.of(List.of("node", AgentInstall.sdkClient().toString(), client, model),
                Map.of("AGENTFUSE_BASE_URL", gateway.baseUrl(), "HOME", AgentGateway.home("sdk").toString()),
                AgentGateway.home("sdk"));
        AgentGateway.report(client, scenario, gateway.agentRequests(), run);
        return run;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"openai, gpt-lone, gpt-lone-1", "openai-responses, gpt-lone, gpt-lone-1",
            "anthropic, claude-lone, claude-lone-1", "ai-sdk-openai, gpt-lone, gpt-lone-1",
            "ai-sdk-anthropic, claude-lone, claude-lone-1", "openai-agents, gpt-lone, gpt-lone-1"})
    void aStormOfServerErrorsWithNoFallbackEndsTheCallAfterAtMostThreeRequests(String client, String model,
                                                                               String upstream) {
        gateway.harness.mock.scriptForModel(upstream, MockStep.builder().status(500).times(100).build());

        AgentRun run = call(client, model, "500 storm, no fallback");

        assertThat(run.resultLine()).as(run.output()).startsWith("error");
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"openai, gpt-lone", "openai-responses, gpt-lone", "anthropic, claude-lone", "ai-sdk-openai, gpt-lone",
            "ai-sdk-anthropic, claude-lone", "openai-agents, gpt-lone"})
    void anOpenBreakerEndsTheCallAfterAtMostThreeRequests(String client, String model) {
        gateway.open(model);

        AgentRun run = call(client, model, "open breaker");

        assertThat(run.resultLine()).as(run.output()).startsWith("error");
        assertThat(gateway.agentRequests()).isBetween(1L, 3L);
        assertThat(gateway.upstream()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"openai, gpt-codex", "openai-responses, gpt-codex", "anthropic, claude-sonnet-4",
            "ai-sdk-openai, gpt-codex", "ai-sdk-anthropic, claude-sonnet-4", "openai-agents, gpt-codex"})
    void aPlainCallIsAnswered(String client, String model) {
        AgentRun run = call(client, model, "plain");

        assertThat(run.resultLine()).as(run.output()).isEqualTo("ok " + MockStep.DEFAULT_TEXT);
        assertThat(gateway.agentRequests()).isEqualTo(1);
    }
}
