package io.agentfuse.gateway.http;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Which headers belong to one hop of a relayed exchange and are not passed on (RFC 9110 §7.6.1):
 * the standard ones, those the message's own {@code Connection} header names, and the ones the
 * sending side recomputes ({@code Host}, {@code Content-Length}): the one place every relay of the
 * gateway (MCP requests and answers, passed-through upstream errors) asks.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * HopByHop.forEachEndToEnd(upstream.headers(), client.headers()::add);
 * }</pre>
 */
public final class HopByHop {

    private static final Set<String> NAMES = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length");

    private HopByHop() {
    }

    /** Whether the header {@code name} (any case) belongs to one hop only. */
    public static boolean isHopByHop(String name) {
        return NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Hands each header of {@code headers} that is not {@linkplain #isHopByHop of one hop}, nor named
     * by their {@code Connection} header, to {@code sink}, in order.
     */
    public static void forEachEndToEnd(Iterable<? extends Map.Entry<String, String>> headers,
                                       BiConsumer<String, String> sink) {
        Set<String> named = connectionOptions(headers);
        for (Map.Entry<String, String> header : headers) {
            if (!isHopByHop(header.getKey()) && (named.isEmpty() || !named.contains(header.getKey().toLowerCase(Locale.ROOT)))) {
                sink.accept(header.getKey(), header.getValue());
            }
        }
    }

    /** The header names {@code headers}' {@code Connection} values list (lower case), as this hop's own. */
    private static Set<String> connectionOptions(Iterable<? extends Map.Entry<String, String>> headers) {
        Set<String> named = Set.of();
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase("connection")) {
                named = named.isEmpty() ? new HashSet<>() : named;
                for (String option : header.getValue().split(",")) {
                    named.add(option.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return named;
    }
}
