package io.agentfuse.langchain4j;

import dev.langchain4j.exception.HttpException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An HTTP failure that keeps the answer's headers: what {@link HeaderKeepingHttpClientBuilder}'s
 * client throws (or hands to a stream's listener) instead of LangChain4j's plain
 * {@link HttpException}. LangChain4j maps it as usual ({@code RateLimitException} for a 429, and
 * so on, with this as the cause); the guards read {@code Retry-After} and its relatives from it.
 * Immutable.
 */
public final class HttpAnswerException extends HttpException {

    private final transient Map<String, String> headers;

    /** An answer with {@code status}, {@code body} and {@code headers} (the first value of each). */
    public HttpAnswerException(int status, String body, Map<String, List<String>> headers) {
        super(status, body);
        Map<String, String> kept = new TreeMap<>();
        headers.forEach((name, values) -> {
            if (name != null && values != null && !values.isEmpty()) {
                kept.put(name.toLowerCase(Locale.ROOT), values.get(0));
            }
        });
        this.headers = Map.copyOf(kept);
    }

    /** Every header of the answer, names in lower case. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The header {@code name} (case-insensitive), if the answer had it. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }
}
