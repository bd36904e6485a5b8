package io.agentfuse.springai;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Streaming through a guarded model: fall over before the first chunk, never after. Retries are
 * off here (one attempt per model), since asynchronous retries wait on the manual clock.
 */
class GuardedStreamTest {

    /** A bound for the test's own wait on a stream; never reached when the code is right. */
    private static final Duration NEVER = Duration.ofSeconds(20);

    private static final String CONFIG = MockModels.CONFIG.replace("maxAttempts: 3", "maxAttempts: 1")
            .replace("consecutive5xx: 3", "consecutive5xx: 1\n    consecutiveErrors: 1")
            .replace("gpt-4o: { provider: openai,", "gpt-4o: { provider: openai, timeout: 5s,");

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(CONFIG);
    private final GuardedChatModel chat = models.guarded(runtime);

    @AfterEach
    void close() {
        models.close();
    }

    private static String text(List<ChatResponse> chunks) {
        StringBuilder text = new StringBuilder();
        for (ChatResponse chunk : chunks) {
            if (chunk.getResult() != null && chunk.getResult().getOutput() != null) {
                text.append(Objects.toString(chunk.getResult().getOutput().getText(), ""));
            }
        }
        return text.toString();
    }

    @Test
    void streamsThePrimaryAndRecordsItsCleanEnd() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("Hel", "lo", "!").build());

        List<ChatResponse> chunks = chat.stream(new Prompt("Hi")).collectList().block(NEVER);

        assertThat(text(chunks)).isEqualTo("Hello!");
        assertThat(models.mock.requestsFor("gpt-4o-mini")).isEmpty();
        assertThat(runtime.registry().breaker("model:gpt-4o").snapshot().state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aFailureBeforeTheFirstChunkFallsOver() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().chunks("from ", "mini").build());

        List<ChatResponse> chunks = chat.stream(new Prompt("Hi")).collectList().block(NEVER);

        assertThat(text(chunks)).isEqualTo("from mini");
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aBreakAfterTheFirstChunkEndsTheStreamWithAnErrorAndCountsAgainstTheModel() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("one ", "two ", "three")
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        List<ChatResponse> relayed = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> chat.stream(new Prompt("Hi")).doOnNext(relayed::add).collectList().block(NEVER))
                .isNotInstanceOf(FallbackExhaustedException.class);

        assertThat(text(relayed)).isEqualTo("one ");

        assertThat(models.mock.requestsFor("gpt-4o-mini")).isEmpty();
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aFirstChunkSlowerThanTheTimeoutFallsOver() throws Exception {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("too ", "late").firstChunkDelayMs(30_000).build());
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().chunks("in ", "time").build());

        CompletableFuture<List<ChatResponse>> chunks = chat.stream(new Prompt("Hi")).collectList().toFuture();
        assertThat(models.clock.pendingTasks()).isPositive(); // the primary's timeout is set
        models.clock.advance(Duration.ofSeconds(5));

        assertThat(text(chunks.get(NEVER.toSeconds(), TimeUnit.SECONDS))).isEqualTo("in time");
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void everyModelFailingBeforeItsFirstChunkEndsWithTheListOfModels() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(502).build());

        assertThatThrownBy(() -> chat.stream(new Prompt("Hi")).collectList().block(NEVER))
                .isInstanceOf(FallbackExhaustedException.class)
                .hasMessageContaining("gpt-4o failed")
                .hasMessageContaining("gpt-4o-mini failed");
    }
}
