package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.testing.GatewayHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SubagentLimitTest {

    private final PipelineFixture fixture = new PipelineFixture(GatewayHarness.CONFIG
            + "subagents:\n  maxConcurrent: 2\n  defaultTimeout: 45\n");
    private final SubagentLimit limit = new SubagentLimit(fixture.runtime);

    @AfterEach
    void stop() {
        fixture.close();
    }

    private ModelRequest fromSubagent(String id) {
        return fixture.request(Dialects.OPENAI, openAiRequest("gpt-4o-mini", false), id);
    }

    @Test
    void aMainAgentRequestNeedsNoPlace() {
        assertThat(limit.admit(fixture.request(Dialects.OPENAI, openAiRequest("gpt-4o-mini", false), null))).isNull();
        assertThat(fixture.runtime.subagentBulkhead().inFlight()).isZero();
    }

    @Test
    void subagentRequestsBeyondMaxConcurrentAreRefusedWith429AndRetryAfter() {
        limit.admit(fromSubagent("a"));
        limit.admit(fromSubagent("b"));

        GatewayException refused = catchThrowableOfType(GatewayException.class, () -> limit.admit(fromSubagent("c")));

        assertThat(refused.error()).isEqualTo(GatewayError.SUBAGENT_LIMIT);
        assertThat(refused.getMessage()).contains("2 subagent calls", "subagents.maxConcurrent");
        assertThat(refused.retryAfter()).contains(Duration.ofSeconds(1));
    }

    @Test
    void aPermitReleasedTwiceFreesOnePlaceOnly() {
        SubagentLimit.Permit first = limit.admit(fromSubagent("a"));
        limit.admit(fromSubagent("b"));

        first.release();
        first.release();

        assertThat(limit.admit(fromSubagent("c"))).isNotNull();
        assertThat(catchThrowableOfType(GatewayException.class, () -> limit.admit(fromSubagent("d")))).isNotNull();
    }

    @Test
    void theDeadlineIsTheConfiguredDefaultTimeout() {
        assertThat(limit.deadline()).isEqualTo(Duration.ofSeconds(45));
    }
}
