package io.agentfuse.langchain4j;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;

import java.time.Duration;

/**
 * The HTTP client to give LangChain4j's models so that the guards can honour a provider's
 * {@code Retry-After} (and {@code retry-after-ms}, {@code x-ratelimit-reset-*},
 * {@code anthropic-ratelimit-*-reset}): LangChain4j's own client drops an error answer's headers.
 * It is LangChain4j's usual client on {@code java.net.http} (HTTP/1.1), whose failures keep them
 * ({@link HttpAnswerException}). Without it everything else works; a 429 just waits the retry
 * policy's backoff instead of the server's word. Not thread-safe; the client it builds is.
 *
 * <pre>{@code
 * ChatModel mini = OpenAiChatModel.builder()
 *     .httpClientBuilder(new HeaderKeepingHttpClientBuilder())
 *     .apiKey(key).modelName("gpt-4o-mini").maxRetries(0)
 *     .build();
 * }</pre>
 */
public final class HeaderKeepingHttpClientBuilder implements HttpClientBuilder {

    private Duration connectTimeout;
    private Duration readTimeout;

    @Override
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public HeaderKeepingHttpClientBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public HeaderKeepingHttpClientBuilder readTimeout(Duration readTimeout) {
        this.readTimeout = readTimeout;
        return this;
    }

    @Override
    public HttpClient build() {
        java.net.http.HttpClient.Builder client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1);
        if (connectTimeout != null) {
            client.connectTimeout(connectTimeout);
        }
        return new HeaderKeepingHttpClient(client.build(), readTimeout);
    }
}
