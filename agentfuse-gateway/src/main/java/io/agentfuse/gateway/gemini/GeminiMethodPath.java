package io.agentfuse.gateway.gemini;

import io.vertx.ext.web.RoutingContext;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Gemini API model method as a caller's path names it: {@code /v1beta/models/{model}:{method}}, or
 * {@code /v1/models/{model}:{method}} for a client set to the API's {@code v1} version. The model
 * is everything between {@code models/} and the last colon, percent-decoded, so that a gateway
 * model named {@code llama3:8b} or {@code team/model} can be asked for too. The colon before the
 * method may be written {@code %3A}, as some URL builders escape it.
 *
 * <p>A request's path is read as the routes matched it ({@link #routed}): {@code //v1beta/...},
 * {@code /x/../v1beta/...} and {@code /%761beta/...} are {@code /v1beta/...}, so that every spelling a
 * route takes names the same model, as the admin and client-key paths do.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * GeminiMethodPath.of("/v1beta/models/gemini-2.5-pro:streamGenerateContent")
 *         .orElseThrow().method();   // Method.STREAM_GENERATE_CONTENT
 * }</pre>
 *
 * @param model  the gateway model the path names
 * @param method the method asked for
 */
public record GeminiMethodPath(String model, Method method) {

    /** The route pattern of every model method the gateway serves, for a router's regex route. */
    public static final String ROUTE = "^/v1(?:beta)?/models/.+(?::|%3[Aa])(?:generateContent|streamGenerateContent|countTokens)$";

    /** The model is greedy: a colon in it ({@code llama3:8b}) stays, the last one separates the method. */
    private static final Pattern PATH = Pattern.compile("^/v1(?:beta)?/models/(.+)(?::|%3[Aa])([A-Za-z]+)$");

    /** The model methods served; every other method of the Gemini API is a 404 at the gateway. */
    public enum Method {
        /** {@code :generateContent}: a complete answer. */
        GENERATE_CONTENT("generateContent"),
        /** {@code :streamGenerateContent}: an answer streamed (with {@code ?alt=sse}). */
        STREAM_GENERATE_CONTENT("streamGenerateContent"),
        /** {@code :countTokens}: the tokens of a request, counted by the gateway. */
        COUNT_TOKENS("countTokens");

        private final String wireName;

        Method(String wireName) {
            this.wireName = wireName;
        }

        /** The method's name in the path. */
        public String wireName() {
            return wireName;
        }
    }

    /** The model method of the path the routes matched for {@code ctx}; empty for another path or method. */
    public static Optional<GeminiMethodPath> of(RoutingContext ctx) {
        return of(routed(ctx));
    }

    /**
     * The path a Gemini route matched ({@link RoutingContext#normalizedPath()}), never the one written:
     * the routes match dot segments removed, slashes merged and unreserved escapes decoded, and a
     * model cut from the written path was then a 404 or another model's name.
     */
    static String routed(RoutingContext ctx) {
        return ctx.normalizedPath();
    }

    /** The model method {@code path} (as the routes match it) names; empty for another path or method. */
    public static Optional<GeminiMethodPath> of(String path) {
        Matcher matcher = PATH.matcher(path);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        for (Method method : Method.values()) {
            if (method.wireName.equals(matcher.group(2))) {
                return Optional.of(new GeminiMethodPath(decoded(matcher.group(1)), method));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@code path} (as routed: normalized) is one of the Gemini API's routes at the gateway —
     * {@code /v1beta/...}, or a model method under {@code /v1/} — where Google's SDKs and Gemini CLI
     * may send their key as {@code ?key=} (docs/design.md §11); on no other route is that a key.
     */
    public static boolean isGoogleRoute(String path) {
        return path.startsWith("/v1beta/") || path.startsWith("/v1/models/") && PATH.matcher(path).matches();
    }

    /** A path segment's percent-escapes decoded; a {@code +} stays a plus in a path. */
    static String decoded(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return segment; // a broken escape is then part of a name no model has: the answer is a 404
        }
    }
}
