package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.http.JsonPieces;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Objects;

/**
 * One call to a provider: where, which body (already in the provider's dialect), and any extra
 * headers to pass on (for example {@code anthropic-beta}). Authentication and content headers
 * are added by {@link UpstreamClient}; extra headers cannot replace them.
 *
 * <p>Immutable by contract: the body is taken over as given and shared, never copied (it may be
 * a 150 KB conversation); neither the caller nor a reader may change it.
 *
 * <pre>{@code
 * UpstreamRequest request = UpstreamRequest.of(provider, body);
 * }</pre>
 *
 * @param provider the provider to call
 * @param body     the request body; {@code null} when {@code encoded} is given, so that a long
 *                 conversation's parsed form need not stay alive while the provider answers
 * @param headers  extra request headers
 * @param encoded  {@code body} as bytes, when known (the caller's own bytes, patched); {@code null}
 *                 to encode the body for each attempt
 */
public record UpstreamRequest(ProviderEndpoint provider, JsonObject body, Map<String, String> headers, Buffer encoded) {

    public UpstreamRequest {
        Objects.requireNonNull(provider, "provider");
        if (body == null && encoded == null) {
            throw new NullPointerException("body: a request needs its body or its encoding");
        }
        headers = Map.copyOf(headers);
    }

    /** A request whose body is encoded when it is sent. */
    public UpstreamRequest(ProviderEndpoint provider, JsonObject body, Map<String, String> headers) {
        this(provider, body, headers, null);
    }

    /**
     * The bytes to send: {@link #encoded()} if known, else the body encoded now, in pieces that are
     * never joined ({@link JsonPieces}): a translated body of megabytes costs its size once per
     * attempt, not three times.
     */
    public Buffer bytes() {
        return encoded != null ? encoded : JsonPieces.encode(body);
    }

    /**
     * This request with its body encoded once ({@link #bytes()}) and the parsed body let go, for a
     * caller that sends it more than once: a body is never changed once written, so every retry and
     * hedge of a step may send the same bytes (a composite buffer Netty reads through a view of its
     * own each time) instead of encoding megabytes again. Itself when already encoded.
     */
    public UpstreamRequest encodedOnce() {
        return encoded != null ? this : new UpstreamRequest(provider, null, headers, JsonPieces.encode(body));
    }

    /** A request without extra headers. */
    public static UpstreamRequest of(ProviderEndpoint provider, JsonObject body) {
        return new UpstreamRequest(provider, body, Map.of());
    }
}
