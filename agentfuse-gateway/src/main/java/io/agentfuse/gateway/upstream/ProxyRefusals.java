package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.dialect.EgressProxyException;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.proxy.ProxyConnectException;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;

import java.net.ConnectException;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the egress proxy did to a request through it, told as the proxy's ({@link EgressProxyException},
 * naming it as {@link EgressProxy#shown} and the keys that configure it), never as the answer of the
 * upstream behind it: its 407 to a proxied request or to a {@code CONNECT} (its login refused, or none
 * given; to a {@code CONNECT} a 401 too, which tinyproxy answers a wrong login with), a refused tunnel,
 * a connection to it that could not be opened. One home for every request of the client stack
 * ({@link UpstreamHttp}): a provider's call, an authentication's token request.
 *
 * <p>Without it, a proxied request's 407 reached an agent as its provider's status 407 (which an
 * agent reads as its own proxy asking it for a login), or, when the proxy closed the connection
 * after it, as "reset by the provider"; a tunnel's was Netty's text, retried as a broken connection.
 *
 * <p>Stateless.
 */
final class ProxyRefusals {

    /** Netty's text for a refused {@code CONNECT}: {@code "http, basic, /proxy:3128 => host:443, status: 407 ..."}. */
    private static final Pattern TUNNEL_STATUS = Pattern.compile("status: (\\d{3})");

    /** Proxy Authentication Required: only a proxy answers it (RFC 9110 §15.5.8). */
    static final int LOGIN_REQUIRED = 407;

    private ProxyRefusals() {
    }

    /**
     * {@code failure} of opening the connection of a request ({@code options}) through {@code proxy},
     * told as the proxy's when it was the proxy's; anything else as it is.
     */
    static Throwable ofConnecting(Throwable failure, ProxyOptions proxy, RequestOptions options) {
        boolean ssl = Boolean.TRUE.equals(options.isSsl());
        for (Throwable at = failure; at != null; at = at.getCause()) {
            if (at instanceof HttpProxyHandler.HttpProxyConnectException tunnel) {
                Matcher status = TUNNEL_STATUS.matcher(String.valueOf(tunnel.getMessage()));
                String code = status.find() ? status.group(1) : null;
                if ("407".equals(code) || "401".equals(code)) { // tinyproxy answers a wrong login 401
                    return loginRefused(proxy, shown(options), ssl, Integer.parseInt(code), failure);
                }
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " refused the tunnel to "
                        + options.getHost() + (code == null ? "" : " (HTTP " + code + ")") + " for a request to " + shown(options),
                        false, failure);
            }
            if (at instanceof ProxyConnectException) {
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " did not open a tunnel to "
                        + options.getHost() + " for a request to " + shown(options) + " (it " + TransportText.plainWords(at) + ")",
                        false, failure);
            }
            if (at instanceof ConnectException) {
                return new EgressProxyException("the egress proxy " + EgressProxy.shown(proxy) + " could not be reached for a"
                        + " request to " + shown(options) + " (the connection " + TransportText.plainWords(at) + "): check "
                        + keys(ssl), false, failure);
            }
        }
        return failure;
    }

    /**
     * The proxy's refusal of the gateway's login when {@code response} is its 407 to a proxied request
     * (cleartext, sent through the proxy {@code egress} picks for its host); {@code null} for any other
     * answer. Inside a tunnel ({@code https}) the proxy sees nothing, and a status is the upstream's own.
     */
    static EgressProxyException ofAnswer(HttpClientResponse response, EgressProxy egress) {
        if (response.statusCode() != LOGIN_REQUIRED) {
            return null;
        }
        // A proxied request names its target in full (Vert.x writes the absolute form); a direct one, or one in a
        // tunnel, its path only.
        String target = response.request().getURI();
        if (!target.regionMatches(true, 0, "http://", 0, 7)) {
            return null;
        }
        URI uri = URI.create(target);
        ProxyOptions proxy = uri.getHost() == null ? null : egress.proxyFor(uri.getHost(), uri.getPort() == -1 ? 80 : uri.getPort(), false);
        return proxy == null ? null : loginRefused(proxy, shown(uri), false, LOGIN_REQUIRED, null);
    }

    private static EgressProxyException loginRefused(ProxyOptions proxy, String url, boolean ssl, int status, Throwable cause) {
        String shown = EgressProxy.shown(proxy);
        return new EgressProxyException(proxy.getUsername() == null
                ? "the egress proxy " + shown + " asks for a login (HTTP " + status + ") for a request to " + url
                        + ", and its URL has none: add user:password@ to " + keys(ssl)
                : "the egress proxy " + shown + " refused the gateway's login (HTTP " + status + ") for a request to " + url
                        + ": check the user and password in " + keys(ssl), true, cause);
    }

    /** Where the proxy of a request over TLS ({@code ssl}) or not is configured. */
    static String keys(boolean ssl) {
        return "server.egressProxy or " + (ssl ? "HTTPS_PROXY" : "HTTP_PROXY");
    }

    /** The URL of {@code options} without a login or a query, which may carry what is not ours to show. */
    static String shown(RequestOptions options) {
        boolean ssl = Boolean.TRUE.equals(options.isSsl());
        String host = options.getHost().indexOf(':') >= 0 ? "[" + options.getHost() + "]" : options.getHost();
        Integer port = options.getPort();
        String path = options.getURI() == null ? "" : options.getURI();
        int query = path.indexOf('?');
        return (ssl ? "https" : "http") + "://" + host + (port == null || port == (ssl ? 443 : 80) ? "" : ":" + port)
                + (query < 0 ? path : path.substring(0, query));
    }

    /** {@code uri} without a login or a query. */
    static String shown(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }
}
