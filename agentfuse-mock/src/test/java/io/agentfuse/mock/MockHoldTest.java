package io.agentfuse.mock;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test holds the mock's answers for as long as it needs and lets them go when it says: a call
 * stays under way without a delay that a busy machine could outlast.
 */
class MockHoldTest extends RunningMock {

    /** A hang guard, never a measure. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newHttpClient();
    private CompletableFuture<HttpResponse<String>> chat() {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(mock.openAiBaseUrl() + "/chat/completions"))
                .header("content-type", "application/json").header("authorization", "Bearer sk-test")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aHeldAnswerGoesWhenTheTestReleasesItAndLaterOnesGoAtOnce() throws Exception {
        mock.script(MockStep.builder().status(529).build());
        MockHold hold = mock.holdAnswers();

        CompletableFuture<HttpResponse<String>> held = chat();
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (hold.waiting() == 0 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(2_000_000L); // a pause between looks, not a guess at how long the request takes
        }

        assertThat(hold.waiting()).as("the answer is held").isEqualTo(1);
        assertThat(held).as("no answer before the release").isNotDone();
        assertThat(mock.requests()).as("the request arrived").hasSize(1);
        hold.release();
        assertThat(held.get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode()).as("the scripted answer").isEqualTo(529);
        assertThat(chat().get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode()).as("after the release, at once").isEqualTo(200);
        assertThat(hold.waiting()).isZero();
    }
}
