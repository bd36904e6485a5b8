package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;

import java.util.Objects;
import java.util.Optional;

/**
 * A provider's complete, successful (2xx) answer. Failures never arrive here: they fail the
 * future (see {@link UpstreamClient}).
 *
 * <p>Immutable by contract, like {@link UpstreamRequest}: the body and the headers are taken over
 * as given and shared, never copied (an answer is relayed as it came, once per request), and
 * neither the caller nor a reader may change them. {@link #headers()} hands out a copy.
 *
 * <pre>{@code
 * client.send(request, Duration.ofSeconds(60)).onSuccess(answer -> {
 *     long tokens = answer.usage().total();
 *     JsonObject body = answer.json();
 * });
 * }</pre>
 *
 * @param status  the HTTP status
 * @param headers the response headers
 * @param body    the raw body
 * @param usage   the tokens the provider reported ({@link Usage#ZERO} when none, or the body is not JSON)
 */
public record UpstreamResponse(int status, MultiMap headers, Buffer body, Usage usage) {

    public UpstreamResponse {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(usage, "usage");
    }

    /** A copy of the response headers. */
    @Override
    public MultiMap headers() {
        return HttpHeaders.headers().addAll(headers);
    }

    /** The body as a JSON object. @throws io.vertx.core.json.DecodeException when it is not one */
    public JsonObject json() {
        return new JsonObject(body);
    }

    /** Header {@code name}, case-insensitively. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name));
    }
}
