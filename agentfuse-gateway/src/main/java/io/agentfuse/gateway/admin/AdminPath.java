package io.agentfuse.gateway.admin;

import io.vertx.ext.web.RoutingContext;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The part of an admin request's path after its route's prefix, read from the path the routes
 * matched ({@link RoutingContext#normalizedPath()}: {@code //admin/...}, {@code /x/../admin/...} and
 * {@code /%61dmin/...} are {@code /admin/...}), never from the path as written, so that every
 * spelling a route takes names the same breaker or window. Pure functions.
 */
final class AdminPath {

    private AdminPath() {
    }

    /** What follows {@code prefix} in the matched path; empty when the path is {@code prefix} or shorter. */
    static String after(RoutingContext ctx, String prefix) {
        String path = ctx.normalizedPath();
        return path.length() > prefix.length() && path.startsWith(prefix) ? path.substring(prefix.length()) : "";
    }

    /** Percent-decodes a path part; a {@code +} stays a plus, as in any path. */
    static String decode(String part) {
        try {
            return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return part;
        }
    }
}
