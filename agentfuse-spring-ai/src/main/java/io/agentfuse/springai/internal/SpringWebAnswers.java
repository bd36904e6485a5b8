package io.agentfuse.springai.internal;

import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the answer out of Spring's {@code RestClient}/{@code RestTemplate} exceptions
 * ({@link RestClientResponseException}: {@code HttpClientErrorException},
 * {@code HttpServerErrorException}, ...) and, when spring-webflux is present, {@code WebClient}'s
 * {@link WebClientResponseException}. Stateless.
 */
public final class SpringWebAnswers {

    private static final boolean WEBFLUX = present("org.springframework.web.reactive.function.client.WebClientResponseException");

    private SpringWebAnswers() {
    }

    /** The answer {@code error} carries, or {@code null} if it is not one of Spring's HTTP exceptions. */
    public static HttpAnswer read(Throwable error) {
        if (error instanceof RestClientResponseException rest) {
            return new HttpAnswer(rest.getStatusCode().value(), rest.getResponseBodyAsString(),
                    firstValues(rest.getResponseHeaders()));
        }
        return WEBFLUX ? WebClientAnswers.read(error) : null;
    }

    static Map<String, String> firstValues(HttpHeaders headers) {
        Map<String, String> first = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((String name, List<String> values) -> {
                if (!values.isEmpty()) {
                    first.put(name, values.get(0));
                }
            });
        }
        return first;
    }

    static boolean present(String className) {
        try {
            Class.forName(className, false, SpringWebAnswers.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Kept apart so that WebClient's classes are loaded only when spring-webflux is present. */
    private static final class WebClientAnswers {
        static HttpAnswer read(Throwable error) {
            if (error instanceof WebClientResponseException web) {
                return new HttpAnswer(web.getStatusCode().value(), web.getResponseBodyAsString(), firstValues(web.getHeaders()));
            }
            return null;
        }
    }
}
