package io.agentfuse.mock;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock's journal of requests stays bounded in bytes as well as in entries: a load of long agent
 * conversations (150 KB each) took a 256 MB mock to an {@code OutOfMemoryError} within a minute
 * while 10 000 entries were allowed.
 */
class RequestJournalBoundTest extends RunningMock {

    private static final int BODY_CHARS = 150_000;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void longConversationsAreForgottenOldestFirstOnceTheirBodiesFillTheJournal() throws Exception {
        // Given more long conversations than the journal keeps characters of
        int sent = (int) (RequestJournal.MAX_BODY_CHARS / BODY_CHARS) + 20;
        for (int i = 0; i < sent; i++) {
            String body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"" + i + " "
                    + "a".repeat(BODY_CHARS) + "\"}]}";
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(mock.openAiBaseUrl() + "/chat/completions"))
                    .header("content-type", "application/json").header("authorization", "Bearer sk-test")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
        }

        // Then the journal keeps the newest, within its bound of characters
        List<RecordedRequest> kept = mock.requests();
        assertThat(kept.stream().mapToLong(request -> request.body().length()).sum()).isLessThanOrEqualTo(RequestJournal.MAX_BODY_CHARS);
        assertThat(kept).hasSizeBetween(sent - 40, sent - 20);
        assertThat(kept.get(kept.size() - 1).body()).contains("\"" + (sent - 1) + " a");
    }
}
