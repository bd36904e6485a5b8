package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.ObservabilityConfig;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.config.StateConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads the {@code server:}, {@code state:} and {@code observability:} sections: how the gateway process runs. */
final class ServerBinder {

    private static final int MAX_PORT = 65_535;
    private static final List<String> REDIS_SCHEMES = List.of("redis", "rediss");
    /** A command timeout in Lettuce's URI syntax, and its bounds (see {@link #checkRedisTimeout}). */
    private static final Pattern REDIS_TIMEOUT = Pattern.compile("\\d{1,9}(?:ms|s|m)");
    private static final Duration REDIS_TIMEOUT_LEAST = Duration.ofMillis(1);
    private static final Duration REDIS_TIMEOUT_MOST = Duration.ofSeconds(60);
    /** An HTTP proxy is spoken to in plain HTTP, whatever the upstream's scheme. */
    private static final List<String> PROXY_SCHEMES = List.of("http");
    private static final List<String> OTLP_SCHEMES = List.of("http", "https");
    private static final int MAX_EVENT_LOOPS = 1024;
    private static final long MAX_BUFFER = 1024L * 1024 * 1024;

    private ServerBinder() {
    }

    static ServerConfig server(MapReader section, Map<String, String> environment) {
        ServerConfig defaults = ConfigDefaults.SERVER;
        var server = new ServerConfig(
                section.integer("port", defaults.port(), 0, MAX_PORT),
                section.size("maxBodySize", defaults.maxBodySize()),
                HeaderSecrets.optional(section, "adminToken", ConfigDefaults.adminToken(environment)),
                section.integer("eventLoops", defaults.eventLoops(), 1, MAX_EVENT_LOOPS),
                section.choice("transport", defaults.transport()),
                limits(section, defaults.limits()),
                StringLists.read(section, "allowedHosts", ServerBinder::hostProblem),
                cors(section.section("cors")),
                new ServerConfig.Shutdown(
                        section.nonNegativeDuration("drainDelay", defaults.shutdown().drainDelay()),
                        section.nonNegativeDuration("shutdownGrace", defaults.shutdown().shutdownGrace())),
                egress(section, environment));
        section.finish();
        return server;
    }

    /**
     * {@code server.egressProxy} for every upstream, else the environment's {@code HTTPS_PROXY} and
     * {@code HTTP_PROXY} (lower-case names first); {@code NO_PROXY} either way. A proxy that is not an
     * {@code http} URL is reported, under the key or the variable's name, without its login: a proxy
     * URL may hold a password, and the report is printed.
     */
    private static ServerConfig.Egress egress(MapReader section, Map<String, String> environment) {
        String written = section.string("egressProxy", null);
        Optional<URI> configured = written == null ? Optional.empty() : ScalarFormats.url(written, PROXY_SCHEMES);
        if (written != null && configured.isEmpty()) {
            String shown = section.find("egressProxy").map(Node::describe).orElse("") // an environment's value stays unshown
                    .replaceFirst("(^\"|://)[^/?#\\s\"]*@", "$1***@");
            section.error("egressProxy", "must be an absolute http URL, but was " + shown);
        }
        URI https = configured.orElseGet(() -> proxyOf(section, environment, "https_proxy", "HTTPS_PROXY"));
        URI http = configured.orElseGet(() -> proxyOf(section, environment, "http_proxy", "HTTP_PROXY"));
        List<String> noProxy = new ArrayList<>();
        String listed = variable(environment, "no_proxy", "NO_PROXY");
        if (listed != null) {
            for (String entry : listed.split(",")) {
                if (!entry.isBlank()) {
                    noProxy.add(entry.strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        return https == null && http == null && noProxy.isEmpty() ? ServerConfig.Egress.DIRECT
                : new ServerConfig.Egress(http, https, noProxy);
    }

    private static URI proxyOf(MapReader section, Map<String, String> environment, String lower, String upper) {
        String name = environment.get(lower) != null ? lower : upper;
        String value = variable(environment, lower, upper);
        if (value == null) {
            return null;
        }
        Optional<URI> proxy = ScalarFormats.url(value.strip(), PROXY_SCHEMES);
        if (proxy.isEmpty()) {
            section.problems().add(name + " (environment)", Location.NONE, "must be an absolute http URL of an HTTP proxy"
                    + " (https upstreams are tunnelled through it with CONNECT), but was "
                    + Node.ScalarNode.fromEnvironment(name)); // a proxy URL may hold a password
            return null;
        }
        return proxy.get();
    }

    /** The first of the two variables that is set and not blank, else null. */
    private static String variable(Map<String, String> environment, String lower, String upper) {
        for (String name : List.of(lower, upper)) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    private static ServerConfig.Limits limits(MapReader section, ServerConfig.Limits defaults) {
        return new ServerConfig.Limits(
                section.duration("headerTimeout", defaults.headerTimeout()),
                section.duration("idleTimeout", defaults.idleTimeout()),
                section.integer("maxConnections", defaults.maxConnections(), 1, Integer.MAX_VALUE),
                section.integer("maxMessages", defaults.maxMessages(), 1, Integer.MAX_VALUE),
                atMost(section, "maxUpstreamBody", defaults.maxUpstreamBody()),
                atMost(section, "maxSseEvent", defaults.maxSseEvent()),
                section.duration("clientWriteTimeout", defaults.clientWriteTimeout()),
                atMost(section, "maxEventQueue", defaults.maxEventQueue()));
    }

    /** A size the gateway buffers in one piece, so at most 1 GB (an {@code int} of bytes). */
    private static long atMost(MapReader section, String key, long fallback) {
        long size = section.size(key, fallback);
        if (size > MAX_BUFFER) {
            section.error(key, "must be at most 1GB, but was " + size + " bytes");
            return fallback;
        }
        return size;
    }

    private static ServerConfig.Cors cors(MapReader section) {
        var cors = new ServerConfig.Cors(StringLists.read(section, "allowedOrigins", ServerBinder::originProblem));
        section.finish();
        return cors;
    }

    private static String hostProblem(String host) {
        boolean plain = host.equals("*") || !host.isEmpty() && host.chars().noneMatch(c -> c == '/' || c == ' ' || c == '@');
        return plain ? null : "must be a host name like gateway.internal or \"*\", but was \"" + host + "\"";
    }

    private static String originProblem(String origin) {
        try {
            URI uri = new URI(origin);
            boolean bare = ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawQuery() == null
                    && uri.getRawUserInfo() == null;
            if (bare) {
                return null;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        return "must be an origin like https://app.example.com (scheme, host, optional port; no path), but was \""
                + origin + "\"";
    }

    /** The {@code observability:} section: {@code otlp.endpoint}, an http(s) URL, or nothing ({@code null}). */
    static ObservabilityConfig observability(MapReader section) {
        MapReader otlp = section.section("otlp");
        boolean none = otlp.find("endpoint").filter(MapReader::isNull).isPresent();
        var observability = new ObservabilityConfig(none ? Optional.empty()
                : otlp.url("endpoint", ConfigDefaults.OBSERVABILITY.otlpEndpoint(), OTLP_SCHEMES));
        otlp.finish();
        section.finish();
        return observability;
    }

    static StateConfig state(MapReader section) {
        StateConfig defaults = ConfigDefaults.STATE;
        StateConfig.Store store = section.choice("store", defaults.store());
        MapReader redis = section.section("redis");
        URI defaultUri = URI.create(defaults.redis().uri());
        Optional<URI> uri = redis.url("uri", Optional.of(defaultUri), REDIS_SCHEMES);
        uri.ifPresent(written -> checkRedisTimeout(redis, written));
        var state = new StateConfig(store, new StateConfig.Redis(uri.orElse(defaultUri).toString(),
                redis.string("keyPrefix", defaults.redis().keyPrefix()),
                redis.choice("budgetOnLoss", defaults.redis().budgetOnLoss()),
                redis.duration("budgetWait", defaults.redis().budgetWait()),
                probeResultWait(redis, defaults.redis().probeResultWait())));
        redis.finish();
        section.finish();
        return state;
    }

    /**
     * The {@code timeout} of {@code state.redis.uri}'s query, Lettuce's command timeout
     * ({@code redis://cache:6379?timeout=500ms}; without one, 1 s): a whole number with its unit, from
     * 1 ms to 60 s, written once, as the Redis store's builders take it ({@code redis.CommandTimeout}).
     * Lettuce itself would read a bare number as milliseconds and what it cannot read ({@code 1.5s}) as
     * its 60 s, without a word.
     */
    private static void checkRedisTimeout(MapReader redis, URI uri) {
        String query = uri.getRawQuery();
        int written = 0;
        for (String parameter : query == null ? new String[0] : query.split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (!name.equalsIgnoreCase("timeout")) {
                continue;
            }
            String value = equals < 0 ? "" : parameter.substring(equals + 1);
            Optional<Duration> timeout = REDIS_TIMEOUT.matcher(value).matches()
                    ? DurationFormat.parse(value, ChronoUnit.SECONDS) : Optional.empty();
            if (++written > 1) {
                redis.error("uri", "writes its timeout twice");
            } else if (timeout.isEmpty() || timeout.get().compareTo(REDIS_TIMEOUT_LEAST) < 0
                    || timeout.get().compareTo(REDIS_TIMEOUT_MOST) > 0) {
                redis.error("uri", "its timeout (the command timeout) must be a whole number with its unit (ms, s, m),"
                        + " from 1ms to 60s, like 500ms or 2s, but was \"" + value + "\"");
            }
        }
    }

    /**
     * {@code state.redis.probeResultWait}: 0 (refuse at once) up to the probe lease
     * ({@link ConfigDefaults#PROBE_LEASE}); a wait past it would outlast the probe it waits for, and
     * hold a call the store would answer at the lease's end anyway.
     */
    private static Duration probeResultWait(MapReader redis, Duration fallback) {
        Duration wait = redis.nonNegativeDuration("probeResultWait", fallback);
        if (wait.compareTo(ConfigDefaults.PROBE_LEASE) > 0) {
            redis.error("probeResultWait", "must be at most " + DurationFormat.format(ConfigDefaults.PROBE_LEASE)
                    + " (the probe lease, a breaker's probeTimeout), but was " + DurationFormat.format(wait));
            return fallback;
        }
        return wait;
    }
}
