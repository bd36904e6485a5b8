package io.agentfuse.langchain4j;

import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * LangChain4j's HTTP client on {@code java.net.http}, except that an answer of 400 or more becomes
 * an {@link HttpAnswerException}, which keeps the headers (LangChain4j's own client drops them,
 * and with them the server's {@code Retry-After}). Thread-safe.
 */
final class HeaderKeepingHttpClient implements HttpClient {

    private final java.net.http.HttpClient client;
    private final Duration readTimeout;

    HeaderKeepingHttpClient(java.net.http.HttpClient client, Duration readTimeout) {
        this.client = client;
        this.readTimeout = readTimeout;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = client.send(toJdk(request), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException timedOut) {
            throw new TimeoutException(timedOut);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a guard's timeout: it reports the call as timed out
            throw new IllegalStateException("interrupted while waiting for " + request.url(), e);
        }
        if (response.statusCode() >= 400) {
            throw new HttpAnswerException(response.statusCode(), response.body(), response.headers().map());
        }
        return SuccessfulHttpResponse.builder().statusCode(response.statusCode())
                .headers(response.headers().map()).body(response.body()).build();
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        client.sendAsync(toJdk(request), HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                quietly(() -> listener.onError(cause instanceof HttpTimeoutException ? new TimeoutException(cause) : cause));
                return;
            }
            try (InputStream body = response.body()) {
                if (response.statusCode() >= 400) {
                    String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                    quietly(() -> listener.onError(new HttpAnswerException(response.statusCode(), text, response.headers().map())));
                    return;
                }
                quietly(() -> listener.onOpen(SuccessfulHttpResponse.builder().statusCode(response.statusCode())
                        .headers(response.headers().map()).build()));
                parser.parse(body, listener);
                quietly(listener::onClose);
            } catch (IOException | RuntimeException e) {
                quietly(() -> listener.onError(e));
            }
        });
    }

    /** Runs a listener's callback; as in LangChain4j's own client, what it throws is not the stream's failure. */
    private static void quietly(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException ignored) {
            // the listener's own bug must not be reported back to it as the stream's error
        }
    }

    private java.net.http.HttpRequest toJdk(HttpRequest request) {
        java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
        request.headers().forEach((name, values) -> values.forEach(value -> builder.header(name, value)));
        builder.method(request.method().name(), request.body() == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                : java.net.http.HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        if (readTimeout != null) {
            builder.timeout(readTimeout);
        }
        return builder.build();
    }
}
