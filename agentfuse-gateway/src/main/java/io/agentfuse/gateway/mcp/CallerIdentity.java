package io.agentfuse.gateway.mcp;

import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who a request comes from, for what belongs to one caller: the MCP sessions it opened through
 * the proxy, which no other caller may use or end. With client keys ({@code clients:}), give the
 * proxy an identity that answers the key's name; until then {@link #byCredentials()} tells
 * callers apart by what they send. Implementations must be thread-safe and cheap, and must
 * never return a credential itself (what they return is kept in memory for the session's life).
 */
@FunctionalInterface
public interface CallerIdentity {

    /** The caller of {@code request}, never null. */
    String of(HttpServerRequest request);

    /**
     * The caller's credential as a SHA-256 digest ({@code Authorization}, else {@code x-api-key}),
     * else its network address: two callers with different keys, or without keys on different
     * hosts, are different callers. Behind a reverse proxy that sends no credential every caller
     * has the proxy's address and counts as one; client keys tell them apart.
     */
    static CallerIdentity byCredentials() {
        return request -> {
            String credential = request.getHeader("authorization");
            if (credential == null) {
                credential = request.getHeader("x-api-key");
            }
            if (credential != null) {
                return "credential:" + sha256(credential);
            }
            return "address:" + (request.remoteAddress() == null ? "unknown" : request.remoteAddress().hostAddress());
        };
    }

    /**
     * The client a key names ({@code clients:}), whichever header carries it, as {@code client:<name>};
     * requests without a known key by {@link #byCredentials()}.
     */
    static CallerIdentity byClientNameOrCredentials(Function<HttpServerRequest, Optional<String>> clientName) {
        CallerIdentity byCredentials = byCredentials();
        return request -> clientName.apply(request).map(name -> "client:" + name).orElseGet(() -> byCredentials.of(request));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
