package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ServerConfig;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Which HTTP proxy, if any, a call to an upstream goes through ({@link ServerConfig.Egress}): the
 * {@code https} proxy for an {@code https} upstream (Vert.x tunnels it with {@code CONNECT}, so the
 * proxy never sees the traffic), the {@code http} one for a cleartext upstream (sent the request
 * with its absolute URI), none for a host {@code NO_PROXY} lists. A proxy's user and password, if its
 * URL has them, are sent as {@code Proxy-Authorization: Basic}.
 *
 * <p>{@code NO_PROXY} is read as curl reads it: {@code *} matches every host; an entry matches the
 * host it names and, unless it is an IP address, every subdomain of it (a leading dot changes
 * nothing); an entry with {@code :port} matches that port only. Names are compared without case;
 * IPv6 addresses with or without brackets. Address ranges (CIDR) are not supported.
 *
 * <p>An authentication's own requests (Vertex AI's token requests) take the same choice, on the same
 * client ({@link AuthHttp}): no second client with proxy settings of its own.
 *
 * <p>A login is sent to the proxy on every call, so a proxy that echoes a request in its error (or a
 * provider behind one that passes the header on) would hand it to a caller: its {@linkplain #secrets
 * secrets} are cleared from what callers and logs read ({@link Redaction}), as the provider's own are.
 *
 * <p>Immutable and thread-safe.
 */
final class EgressProxy {

    private final ProxyOptions http;
    private final ProxyOptions https;
    private final List<String> noProxy;
    private final List<String> secrets;

    EgressProxy(ServerConfig.Egress egress) {
        this.http = options(egress.httpProxy());
        this.https = options(egress.httpsProxy());
        this.noProxy = egress.noProxy();
        this.secrets = secretsOf(http, https);
    }

    /**
     * The proxies' logins as the gateway sends them: each password, and each {@code user:password} in
     * base64 as {@code Proxy-Authorization: Basic} carries it (Vert.x encodes it in UTF-8). Empty without a login.
     */
    List<String> secrets() {
        return secrets;
    }

    /** The proxy of a call to {@code host}:{@code port}, over TLS if {@code ssl}; {@code null} to connect directly. */
    ProxyOptions proxyFor(String host, int port, boolean ssl) {
        ProxyOptions proxy = ssl ? https : http;
        return proxy == null || bypassed(host, port) ? null : proxy;
    }

    /**
     * {@code proxy} as errors and logs may name it: {@code http://host:port}, or {@code http://***@host:port}
     * when its URL has a login, as a printed configuration shows it.
     */
    static String shown(ProxyOptions proxy) {
        String host = proxy.getHost().indexOf(':') >= 0 ? "[" + proxy.getHost() + "]" : proxy.getHost();
        return "http://" + (proxy.getUsername() == null ? "" : "***@") + host + ":" + proxy.getPort();
    }

    /** Whether {@code NO_PROXY} lists {@code host}:{@code port}. */
    boolean bypassed(String host, int port) {
        String name = unbracketed(host.toLowerCase(Locale.ROOT));
        for (String entry : noProxy) {
            if (entry.equals("*") || matches(entry, name, port)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String entry, String host, int port) {
        String pattern = entry;
        int colon = pattern.lastIndexOf(':');
        // host:port, [v6]:port; a bare IPv6 address has colons but no port
        if (colon > 0 && pattern.indexOf(':') == colon || pattern.startsWith("[") && pattern.contains("]:")) {
            String entryPort = pattern.substring(colon + 1);
            pattern = pattern.substring(0, colon);
            if (!entryPort.equals(Integer.toString(port))) {
                return false;
            }
        }
        pattern = unbracketed(pattern.startsWith(".") ? pattern.substring(1) : pattern);
        if (pattern.isEmpty()) {
            return false;
        }
        return host.equals(pattern) || !isAddress(pattern) && host.endsWith("." + pattern);
    }

    private static boolean isAddress(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static List<String> secretsOf(ProxyOptions... proxies) {
        List<String> secrets = new ArrayList<>();
        for (ProxyOptions proxy : proxies) {
            if (proxy != null && proxy.getUsername() != null) {
                String login = proxy.getUsername() + ":" + proxy.getPassword();
                secrets.add(Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8)));
                secrets.add(proxy.getPassword());
            }
        }
        return secrets.stream().filter(secret -> !secret.isEmpty()).distinct().toList();
    }

    private static ProxyOptions options(URI proxy) {
        if (proxy == null) {
            return null;
        }
        ProxyOptions options = new ProxyOptions().setType(ProxyType.HTTP).setHost(unbracketed(proxy.getHost()))
                .setPort(proxy.getPort() >= 0 ? proxy.getPort() : 80);
        String userInfo = proxy.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            options.setUsername(decoded(colon < 0 ? userInfo : userInfo.substring(0, colon)));
            options.setPassword(colon < 0 ? "" : decoded(userInfo.substring(colon + 1)));
        }
        return options;
    }

    private static String decoded(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
