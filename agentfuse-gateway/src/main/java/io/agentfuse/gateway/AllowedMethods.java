package io.agentfuse.gateway;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The methods a router's routes serve a path with, for the {@code Allow} header a 405 must carry (RFC 9110
 * §15.5.6): the union of the methods of every route that names its methods and whose path matches — an exact
 * path, a prefix ({@code /admin/breakers/*}), a path of parameters ({@code /mcp/:server}) or a regular
 * expression (Vert.x Web names such a route by its pattern). A route that takes every method (a guard, a
 * body reader) says nothing. Read from the router when a 405 is answered, which is rare, so it is never out
 * of date with the routes. Stateless.
 *
 * <pre>{@code
 * AllowedMethods.of(router, "/healthz"); // "GET, HEAD"
 * }</pre>
 */
final class AllowedMethods {

    /** A parameter of a route's path, {@code :server}, as Vert.x Web reads it. */
    private static final Pattern PARAMETER = Pattern.compile(":[A-Za-z0-9_]+");

    private AllowedMethods() {
    }

    /** The methods {@code router} serves {@code path} with, sorted, comma-separated; empty when none names any. */
    static String of(Router router, String path) {
        Set<String> methods = new TreeSet<>();
        for (Route route : router.getRoutes()) {
            Set<HttpMethod> named = route.methods();
            if (named != null && !named.isEmpty() && matches(route, path)) {
                named.forEach(method -> methods.add(method.name()));
            }
        }
        return String.join(", ", methods);
    }

    private static boolean matches(Route route, String path) {
        String template = route.getPath();
        if (template == null) { // a regular expression, which Vert.x Web gives as the route's name
            return route.isRegexPath() && route.getName() != null && Pattern.compile(route.getName()).matcher(path).matches();
        }
        if (route.isRegexPath()) { // a path of parameters
            return ofParameters(template).matcher(path).matches();
        }
        return route.isExactPath() ? withoutEndSlash(path).equals(withoutEndSlash(template)) : path.startsWith(template);
    }

    /** {@code /mcp/:server} as {@code \Q/mcp/\E[^/]+/?}: each parameter one segment, the rest as written. */
    private static Pattern ofParameters(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher parameter = PARAMETER.matcher(template);
        int from = 0;
        while (parameter.find()) {
            regex.append(Pattern.quote(template.substring(from, parameter.start()))).append("[^/]+");
            from = parameter.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(template.substring(from))).append("/?").toString());
    }

    private static String withoutEndSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
