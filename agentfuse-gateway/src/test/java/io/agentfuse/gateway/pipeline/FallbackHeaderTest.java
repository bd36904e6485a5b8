package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.upstream.UpstreamAuthException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FallbackHeaderTest {

    @Test
    void nothingPassedOverMeansNoHeader() {
        assertThat(FallbackHeader.format(List.of())).isNull();
    }

    @Test
    void namesEachStepWithItsReasonAndStatus() {
        String header = FallbackHeader.format(List.of(
                StepFailure.failed("claude-sonnet-4", Outcome.SERVER_ERROR, new HttpStatusException(503)),
                StepFailure.failed("claude-haiku-4", Outcome.TIMEOUT, new CallTimeoutException(Duration.ofSeconds(1))),
                StepFailure.unservable("gpt-4o-mini", "cannot translate: logprobs")));

        assertThat(header).isEqualTo("claude-sonnet-4=SERVER_ERROR(HTTP 503); claude-haiku-4=TIMEOUT; gpt-4o-mini=untranslatable");
    }

    @Test
    void aRefusalOfTheGatewaysCredentialsSaysSoWithTheProvidersStatusWhenTheProviderAnswered() {
        String header = FallbackHeader.format(List.of(
                StepFailure.failed("gpt-4o-mini", Outcome.ERROR, new UpstreamAuthException("openai", 401)),
                StepFailure.failed("vertex-claude", Outcome.ERROR,
                        new UpstreamAuthException("vertex", "the token endpoint refused the service account"))));

        assertThat(header).isEqualTo("gpt-4o-mini=ERROR(HTTP 401 credentials refused); vertex-claude=ERROR(credentials refused)");
    }

    @Test
    void aFullBulkheadIsNamedAsSuch() {
        BulkheadFullException full = Bulkhead.of("claude", 1).rejection();

        assertThat(FallbackHeader.format(List.of(StepFailure.bulkheadFull("claude-haiku-4", full))))
                .isEqualTo("claude-haiku-4=bulkhead_full");
    }

    @Test
    void staysOnePrintableAsciiLineOfBoundedLength() {
        String hostile = "m\u00e9\r\nx-injected: yes" + "y".repeat(1000);

        String header = FallbackHeader.format(List.of(StepFailure.failed(hostile, Outcome.ERROR, null)));

        assertThat(header).hasSizeLessThanOrEqualTo(FallbackHeader.MAX_LENGTH).endsWith("...")
                .doesNotContain("\r").doesNotContain("\n").matches("[\\x20-\\x7e]+");
    }
}
