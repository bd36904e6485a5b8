package io.agentfuse.gateway.pipeline;

import io.vertx.core.MultiMap;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which headers of a provider's answer reach the caller: the one rule (docs/design.md §7). Only a
 * passed-through answer (an upstream 4xx) carries any; an answer the gateway writes, a success
 * included, carries none. The gateway is the provider's client, with its own credentials, not a
 * transparent proxy (Envoy passes end-to-end headers on by default; a gateway that holds the key
 * does not), so what the provider says to that client, or about its own host, stays with it:
 * <ul>
 *   <li>the state of the gateway's own session with the provider: {@code Set-Cookie},
 *       {@code Set-Cookie2} (Cloudflare's {@code __cf_bm} and {@code _cfuvid}, which api.openai.com
 *       and api.anthropic.com set);</li>
 *   <li>what a client would apply to the gateway's origin though the provider meant its own host:
 *       {@code Alt-Svc}, {@code Strict-Transport-Security}, {@code Public-Key-Pins},
 *       {@code Expect-CT}, {@code Clear-Site-Data}, the reporting headers ({@code NEL},
 *       {@code Report-To}, {@code Reporting-Endpoints}) and CORS ({@code Access-Control-*}: the
 *       gateway's {@code server.cors} decides);</li>
 *   <li>what the gateway writes on the answer itself: its own headers ({@code x-agentfuse-*},
 *       {@code x-request-id}, the content type) and every other header it has put on the answer
 *       already, and {@code Content-Encoding} (the body was read as text); those of one hop were
 *       never kept ({@link io.agentfuse.gateway.http.HopByHop}).</li>
 * </ul>
 * Everything else passes, in order, repeated ones repeated: the provider's request id, rate-limit
 * headers, retry hints. The provider's request id passes under its own name ({@code request-id},
 * {@code x-amzn-requestid}, {@code apim-request-id}) unless that is the gateway's {@code x-request-id}
 * (OpenAI's, Azure's): then as {@value #PROVIDER_REQUEST_ID}, so that a caller can quote it to the
 * provider's support, as LiteLLM passes a provider's headers under names of its own
 * ({@code llm_provider-x-request-id}). Values come already cleared of the gateway's credentials
 * ({@link io.agentfuse.gateway.upstream.Redaction}).
 *
 * <p>An error the gateway writes itself after its attempts (a chain exhausted by 5xx, 429s or a stream
 * that failed as it opened) carries the request id of the provider's answer to the last attempt, if
 * it got one, as {@value #PROVIDER_REQUEST_ID} whatever the provider named it ({@link #passRequestId}):
 * the one header of the provider's that such an answer carries, so that the caller can quote the
 * failed call to the provider's support. Stateless.
 */
final class ProviderHeaders {

    private static final Set<String> WITHHELD = Set.of("set-cookie", "set-cookie2", "alt-svc", "strict-transport-security",
            "public-key-pins", "public-key-pins-report-only", "expect-ct", "clear-site-data", "nel", "report-to",
            "reporting-endpoints", "content-encoding", "content-type", RequestLog.HEADER);
    private static final String CORS = "access-control-";
    /**
     * The headers a provider names its answer by: OpenAI's (and vLLM's) {@code x-request-id}, Anthropic's
     * {@code request-id}, Bedrock's {@code x-amzn-requestid}, Azure's {@code apim-request-id} (beside its
     * {@code x-request-id}); the Gemini API and Vertex AI send none.
     */
    private static final Set<String> REQUEST_IDS = Set.of(RequestLog.HEADER, "request-id", "x-amzn-requestid",
            "apim-request-id");
    /** The name under which a provider's {@code x-request-id} reaches the caller, whose own is the gateway's. */
    static final String PROVIDER_REQUEST_ID = ResponseHeaders.PREFIX + "provider-request-id";

    private ProviderHeaders() {
    }

    /** Adds to {@code answer}, the caller's headers, those of {@code provider}'s that reach the caller. */
    static void pass(Iterable<? extends Map.Entry<String, String>> provider, MultiMap answer) {
        Set<String> own = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        own.addAll(answer.names());
        for (Map.Entry<String, String> header : provider) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (name.equals(RequestLog.HEADER) && !own.contains(PROVIDER_REQUEST_ID)) {
                answer.add(PROVIDER_REQUEST_ID, header.getValue());
            } else if (reaches(name) && !own.contains(name)) {
                answer.add(header.getKey(), header.getValue());
            }
        }
    }

    /**
     * Adds to {@code answer}, an error the gateway writes itself, the request id among {@code provider}'s
     * headers (the first one, {@link #REQUEST_IDS}) as {@value #PROVIDER_REQUEST_ID}; nothing when it has none.
     */
    static void passRequestId(Iterable<? extends Map.Entry<String, String>> provider, MultiMap answer) {
        String id = requestId(provider);
        if (id != null) {
            answer.set(PROVIDER_REQUEST_ID, id);
        }
    }

    /**
     * The request id among {@code provider}'s headers (the first one, {@link #REQUEST_IDS}), or {@code null}:
     * what a caller quotes to the provider's support, on an error answer or in a broken stream's error event.
     */
    static String requestId(Iterable<? extends Map.Entry<String, String>> provider) {
        for (Map.Entry<String, String> header : provider) {
            if (REQUEST_IDS.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                return header.getValue();
            }
        }
        return null;
    }

    /**
     * What ends the message of the error event that ends a stream under way, whose 200 head went without
     * the provider's request id (a success carries none): {@code " (provider request id req_123)"}; empty without one.
     */
    static String failureNote(Iterable<? extends Map.Entry<String, String>> provider) {
        String id = requestId(provider);
        return id == null ? "" : " (provider request id " + id + ")";
    }

    /** Whether a provider's header {@code name} (lower case) may reach a caller at all. */
    static boolean reaches(String name) {
        return !WITHHELD.contains(name) && !name.startsWith(CORS) && !name.startsWith(ResponseHeaders.PREFIX);
    }
}
