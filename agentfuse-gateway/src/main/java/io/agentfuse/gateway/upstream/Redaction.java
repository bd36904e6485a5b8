package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The one place where what a provider sent is cleared of the gateway's credentials before a caller
 * or a log reads it: every secret the gateway sent {@code provider} lately that it contains is
 * replaced by {@value #REDACTED}. A broken upstream, or a proxy in front of it, may echo a request's
 * headers, in its error body, its headers or an error event of a stream that began; the gateway's
 * credentials are never its callers' to read.
 *
 * <p>The secrets: what its authentication sent ({@link io.agentfuse.gateway.dialect.UpstreamAuth#secretsSent}:
 * its keys, the access tokens it minted, AWS session tokens) and the values of the provider's
 * configured {@code headers:}, which the gateway cannot tell from credentials (a tenant's key for an
 * internal proxy, say): a value shorter than {@value #SHORTEST_SECRET} characters is not taken for a
 * secret, as replacing it would garble the text (a test key {@code "x"}, a header {@code x-team: ml}).
 *
 * <p>Stateless and thread-safe; its cost grows with the text and the secrets, so it reads error
 * answers only, never a stream's every event.
 */
public final class Redaction {

    /** What stands in for a credential in text a caller reads. */
    public static final String REDACTED = "[redacted]";
    /** Shorter values are not taken for secrets. */
    static final int SHORTEST_SECRET = 8;
    /** Where an excerpt of a provider's text was cut ({@link io.agentfuse.gateway.dialect.AnswerShape#excerpt}). */
    private static final String CUT = "…";

    private Redaction() {
    }

    /** {@code text} {@code provider} sent, cleared of the gateway's credentials; {@code null} stays {@code null}. */
    public static String of(ProviderEndpoint provider, String text) {
        return text == null ? null : redacted(text, secretsOf(provider));
    }

    /** The headers of {@code provider}'s answer, each value cleared of the gateway's credentials, in order. */
    static List<Map.Entry<String, String>> of(ProviderEndpoint provider, MultiMap headers) {
        Collection<String> secrets = secretsOf(provider);
        List<Map.Entry<String, String>> shown = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> header : headers) {
            shown.add(Map.entry(header.getKey(), redacted(header.getValue(), secrets)));
        }
        return shown;
    }

    /**
     * {@code events} made of what {@code provider} streamed (its error event relayed, or said again
     * in the caller's dialect), each one's data cleared of the gateway's credentials: an event that
     * held none is the same event.
     */
    public static List<SseEvent> of(ProviderEndpoint provider, List<SseEvent> events) {
        Collection<String> secrets = secretsOf(provider);
        List<SseEvent> shown = new ArrayList<>(events.size());
        for (SseEvent event : events) {
            String data = event.data();
            String cleared = redacted(data, secrets);
            shown.add(cleared.equals(data) ? event : new SseEvent(event.event(), cleared, event.id()));
        }
        return shown;
    }

    private static Collection<String> secretsOf(ProviderEndpoint provider) {
        Collection<String> sent = provider.auth().secretsSent();
        if (provider.headers().isEmpty()) {
            return sent;
        }
        List<String> all = new ArrayList<>(sent);
        all.addAll(provider.headers().values());
        return all;
    }

    private static String redacted(String text, Collection<String> secrets) {
        String shown = text;
        for (String secret : secrets) {
            if (secret.length() >= SHORTEST_SECRET && shown.contains(secret)) {
                shown = shown.replace(secret, REDACTED);
            }
        }
        return shown.indexOf(CUT) < 0 ? shown : withoutCutSecrets(shown, secrets);
    }

    /**
     * {@code text} without the start of a secret that an excerpt cut short ({@code 'Bearer sk-oai-configu…'}:
     * the gateway quotes a provider's text in excerpts, cut where it is long, and a cut through a key leaves
     * most of it): every run of {@value #SHORTEST_SECRET} or more characters before a cut that begins a secret.
     */
    private static String withoutCutSecrets(String text, Collection<String> secrets) {
        String shown = text;
        for (int cut = shown.indexOf(CUT); cut >= 0; cut = shown.indexOf(CUT, cut + 1)) {
            for (String secret : secrets) {
                int start = startOfCutSecret(shown, cut, secret);
                if (start >= 0) {
                    shown = shown.substring(0, start) + REDACTED + shown.substring(cut);
                    cut = start + REDACTED.length();
                    break;
                }
            }
        }
        return shown;
    }

    /** Where the longest start of {@code secret} that ends at {@code cut} begins; -1 when none of {@value #SHORTEST_SECRET} or more does. */
    private static int startOfCutSecret(String text, int cut, String secret) {
        for (int length = Math.min(secret.length() - 1, cut); length >= SHORTEST_SECRET; length--) {
            if (text.regionMatches(cut - length, secret, 0, length)) {
                return cut - length;
            }
        }
        return -1;
    }
}
