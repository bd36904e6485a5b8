package io.agentfuse.gateway.admin;

import io.agentfuse.gateway.http.GatewayErrors;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Guards the admin API's operations with {@code Authorization: Bearer <server.adminToken>}:
 * <ul>
 *   <li>no admin token configured → 403 {@code forbidden}: the admin API is read-only;</li>
 *   <li>no or malformed {@code Authorization} header → 401 {@code unauthorized} with
 *       {@code WWW-Authenticate: Bearer};</li>
 *   <li>a wrong token → 403 {@code forbidden}.</li>
 * </ul>
 * Tokens are compared in constant time. Reading endpoints need no token. Thread-safe; reads the
 * token from the configuration in force on every request.
 */
final class AdminAuthorization {

    private static final String BEARER = "Bearer ";

    private final Supplier<String> adminToken;

    AdminAuthorization(Supplier<String> adminToken) {
        this.adminToken = Objects.requireNonNull(adminToken, "adminToken");
    }

    /** Whether {@code request} may operate; if not, the refusal has been sent on {@code response}. */
    boolean permits(HttpServerRequest request, HttpServerResponse response) {
        String expected = adminToken.get();
        if (expected.isEmpty()) {
            GatewayErrors.respondAdmin(response, 403, "forbidden",
                    "the admin API is read-only: no server.adminToken is configured");
            return false;
        }
        String header = request.getHeader("authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            response.putHeader("www-authenticate", "Bearer");
            GatewayErrors.respondAdmin(response, 401, "unauthorized",
                    "admin operations need the header Authorization: Bearer <server.adminToken>");
            return false;
        }
        byte[] given = header.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, expected.getBytes(StandardCharsets.UTF_8))) {
            GatewayErrors.respondAdmin(response, 403, "forbidden", "the admin token is not valid");
            return false;
        }
        return true;
    }
}
