package io.agentfuse.gateway.budget;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * The client key a request presents and where it was read ({@code Authorization}, {@code x-api-key},
 * {@code x-goog-api-key}, the {@code key} query parameter), in that order of precedence: the first
 * one present is the key, the others are not read. The source is named in a refusal, so that a
 * caller whose SDK sends one header while a proxy adds another learns which one counted; the key
 * itself is never shown.
 *
 * @param key    the key, stripped
 * @param source where it was read, as a refusal names it
 */
record PresentedKey(String key, String source) {

    /** A {@code key} query parameter sent on a route where it is not read: no key, but a 401 says so. */
    static final PresentedKey IGNORED_QUERY = new PresentedKey("", "the key query parameter");

    private static final String BEARER = "bearer ";
    private static final String QUERY_KEY = "key";
    private static final String[][] HEADERS = {{"authorization", "Authorization"}, {"x-api-key", "x-api-key"},
            {"x-goog-api-key", "x-goog-api-key"}};

    /** The key {@code headers} present: the bearer token of {@code Authorization}, else {@code x-api-key}, else {@code x-goog-api-key}. */
    static PresentedKey in(MultiMap headers) {
        for (String[] header : HEADERS) {
            String key = keyIn(headers, header[0]);
            if (key != null) {
                return new PresentedKey(key, header[1]);
            }
        }
        return null;
    }

    /** The {@code key} query parameter of {@code request}, Google's other way to send a key; {@code null} when absent or blank. */
    static PresentedKey query(HttpServerRequest request) {
        String key = sentAsQuery(request) ? nonBlank(request.getParam(QUERY_KEY)) : null;
        return key == null ? null : new PresentedKey(key, IGNORED_QUERY.source);
    }

    /** {@link #IGNORED_QUERY} when {@code request} has a {@code key} query parameter, which is not read on its route; else {@code null}. */
    static PresentedKey ignoredQuery(HttpServerRequest request) {
        return sentAsQuery(request) && request.getParam(QUERY_KEY) != null ? IGNORED_QUERY : null;
    }

    /**
     * What a refusal of {@code read} adds about the other headers {@code headers} carry a key in,
     * which were not read: {@code ""} when there are none.
     */
    static String unread(MultiMap headers, PresentedKey read) {
        List<String> others = new ArrayList<>(2);
        for (String[] header : HEADERS) {
            if (!header[1].equals(read.source) && keyIn(headers, header[0]) != null) {
                others.add(header[1]);
            }
        }
        return others.isEmpty() ? "" : " (" + String.join(" and ", others) + (others.size() == 1 ? " was" : " were")
                + " sent too and not read: " + read.source + " comes first)";
    }

    private static boolean sentAsQuery(HttpServerRequest request) {
        String query = request.query();
        return query != null && query.contains(QUERY_KEY + "="); // most requests have none: their query is not parsed
    }

    private static String keyIn(MultiMap headers, String name) {
        String value = headers.get(name);
        if (!"authorization".equals(name)) {
            return nonBlank(value);
        }
        return value != null && value.length() > BEARER.length() && value.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? nonBlank(value.substring(BEARER.length())) : null;
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public String toString() {
        return "PresentedKey[source=" + source + "]"; // never the key
    }
}
