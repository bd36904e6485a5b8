package io.agentfuse.gateway.server;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.http.GatewayError;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The rules every request passes before it is routed, so that a web page cannot spend the
 * configured keys and a rebound DNS name cannot reach the gateway:
 * <ol>
 *   <li>exactly one {@code Host} header (two: 400), and it names an allowed host: a loopback name,
 *       the bind address, or one of {@code server.allowedHosts} ({@code "*"} allows any) — else 403;</li>
 *   <li>a browser's {@code Origin} must be the gateway itself (the dashboard) or one of
 *       {@code server.cors.allowedOrigins} — else 403; an allowed cross-origin request gets CORS
 *       headers, and its preflight ({@code OPTIONS} with {@code Access-Control-Request-Method})
 *       is answered 204 here;</li>
 *   <li>a request with a body must say {@code Content-Type: application/json} (or a {@code +json}
 *       type) — else 415: a {@code text/plain} POST is what a page may send without a preflight;</li>
 *   <li>and it is not compressed ({@code Content-Encoding} absent or {@code identity}) — else 415
 *       with {@code Accept-Encoding: identity} (RFC 9110 §15.5.16): the gateway inflates nothing a
 *       caller sends (no decompression bomb), and a compressed body read as JSON would be refused
 *       for its first byte, not for what it is;</li>
 *   <li>every {@code %} of its path and query starts an escape of two hexadecimal digits (RFC 3986
 *       §2.1) — else 400: the router and the query's decoder would fail on it, with a stack trace
 *       that quotes the whole target, a {@code ?key=} included.</li>
 * </ol>
 * A refusal names the header, never its value: a caller may have put a key in the wrong one.
 * Thread-safe and immutable.
 */
final class RequestGate {

    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "::1", "[::1]");
    private static final String ANY = "*";
    private static final String PREFLIGHT_MAX_AGE = "600";
    private static final String IDENTITY = "identity";
    /**
     * The answer headers a browser's script may read: the gateway's own (docs/design.md §7, §11, §13)
     * and the retry advice its errors carry.
     */
    private static final String EXPOSED_HEADERS = "x-agentfuse-model, x-agentfuse-attempts, x-agentfuse-fallbacks, "
            + "x-agentfuse-context, x-agentfuse-compaction, x-agentfuse-budget, x-agentfuse-hedged, "
            + "x-agentfuse-provider-request-id, x-should-retry, retry-after, retry-after-ms, x-request-id";

    private final Set<String> hosts = new HashSet<>();
    private final boolean anyHost;
    private final Set<String> origins = new HashSet<>();
    /**
     * The last {@code Host} value found allowed: a client sends the same one with every request,
     * so its name need not be taken apart and looked up again. Read and written by every event
     * loop without a lock: a {@code String} is safe to publish so, and a stale value only costs the
     * lookup it would have saved.
     */
    private String lastAllowedHost;

    RequestGate(ServerConfig server, String bindHost) {
        LOOPBACK.forEach(host -> hosts.add(host));
        hosts.add(bindHost.toLowerCase(Locale.ROOT));
        server.allowedHosts().forEach(host -> hosts.add(host.toLowerCase(Locale.ROOT)));
        this.anyHost = server.allowedHosts().contains(ANY);
        server.cors().allowedOrigins().forEach(origin -> origins.add(origin.toLowerCase(Locale.ROOT)));
    }

    /** Whether {@code request} may be routed; if not, it has been answered already. */
    boolean admit(HttpServerRequest request) {
        List<String> hostHeaders = request.headers().getAll(HttpHeaders.HOST);
        if (hostHeaders.size() > 1) {
            EdgeErrors.refuse(request, GatewayError.INVALID_REQUEST, "the request has more than one Host header");
            return false;
        }
        String host = hostHeaders.isEmpty() ? null : hostHeaders.get(0).trim();
        if (host == null || host.isEmpty()) {
            EdgeErrors.refuse(request, GatewayError.INVALID_REQUEST, "the request has no Host header");
            return false;
        }
        if (!anyHost && !host.equals(lastAllowedHost)) {
            if (!hosts.contains(hostName(host))) {
                EdgeErrors.refuse(request, GatewayError.FORBIDDEN, "the request's Host is not allowed (it is "
                        + "not a loopback name or the bind address); add it to server.allowedHosts to serve it");
                return false;
            }
            lastAllowedHost = host;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !sameOrigin(origin, host)) {
            if (!origins.contains(origin.trim().toLowerCase(Locale.ROOT))) {
                // The refusal depends on the Origin, as an allowed one's CORS headers do: no cache may give it to another.
                request.response().headers().set(HttpHeaders.VARY, "origin");
                EdgeErrors.refuse(request, GatewayError.FORBIDDEN, "requests from the request's Origin are "
                        + "not allowed; add it to server.cors.allowedOrigins to serve it");
                return false;
            }
            if (crossOrigin(request, origin)) {
                return false;
            }
        }
        if (hasBody(request) && !isJson(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
            EdgeErrors.refuse(request, GatewayError.UNSUPPORTED_MEDIA_TYPE, "the request body must be JSON "
                    + "(Content-Type: application/json), but the request "
                    + (request.getHeader(HttpHeaders.CONTENT_TYPE) == null ? "has no Content-Type" : "says another type"));
            return false;
        }
        if (!wellEscaped(request.uri())) {
            EdgeErrors.refuse(request, GatewayError.INVALID_REQUEST, "the request's path or query is not valid:"
                    + " each '%' must be followed by two hexadecimal digits (write a '%' itself as %25)");
            return false;
        }
        String coding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (coding != null && !coding.trim().equalsIgnoreCase(IDENTITY) && hasBody(request)) {
            request.response().headers().set(HttpHeaders.ACCEPT_ENCODING, IDENTITY);
            EdgeErrors.refuse(request, GatewayError.UNSUPPORTED_MEDIA_TYPE, "the request body must not be compressed "
                    + "(Content-Encoding); send it as plain JSON");
            return false;
        }
        return true;
    }

    /** Adds the CORS headers of an allowed origin; true when this was its preflight, answered here. */
    private static boolean crossOrigin(HttpServerRequest request, String origin) {
        HttpServerResponse response = request.response();
        response.putHeader("access-control-allow-origin", origin).putHeader("vary", "origin")
                .putHeader("access-control-expose-headers", EXPOSED_HEADERS);
        String method = request.getHeader("access-control-request-method");
        if (request.method() != HttpMethod.OPTIONS || method == null) {
            return false;
        }
        String headers = request.getHeader("access-control-request-headers");
        response.setStatusCode(204)
                .putHeader("access-control-allow-methods", "GET, POST, DELETE, OPTIONS")
                .putHeader("access-control-max-age", PREFLIGHT_MAX_AGE);
        if (headers != null) {
            response.putHeader("access-control-allow-headers", headers);
        }
        response.end();
        return true;
    }

    /** The dashboard's own requests: {@code Origin} is the scheme + the Host it was served from. */
    private static boolean sameOrigin(String origin, String host) {
        String trimmed = origin.trim().toLowerCase(Locale.ROOT);
        String self = host.toLowerCase(Locale.ROOT);
        return trimmed.equals("http://" + self) || trimmed.equals("https://" + self);
    }

    /** The name part of a Host header: without the port, brackets kept for IPv6 literals. */
    static String hostName(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        if (lower.startsWith("[")) {
            int end = lower.indexOf(']');
            return end < 0 ? lower : lower.substring(0, end + 1);
        }
        int colon = lower.indexOf(':');
        return colon < 0 ? lower : lower.substring(0, colon);
    }

    /** Whether every {@code %} of {@code target} (a request's path and query) starts an escape of two hexadecimal digits. */
    static boolean wellEscaped(String target) {
        if (target == null) {
            return true;
        }
        for (int at = target.indexOf('%'); at >= 0; at = target.indexOf('%', at + 1)) {
            if (at + 2 >= target.length() || !HexFormat.isHexDigit(target.charAt(at + 1))
                    || !HexFormat.isHexDigit(target.charAt(at + 2))) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            return !length.trim().equals("0");
        }
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || type.startsWith("application/") && type.endsWith("+json");
    }
}
