package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The one place where what a provider sent is cleared of the gateway's credentials before a caller
 * or a log reads it: every secret the gateway sent {@code provider} lately that it contains is
 * replaced by {@value #REDACTED}, written as it is, JSON-escaped or percent-encoded ({@link #width}).
 * A broken upstream, or a proxy in front of it, may echo a request's headers or its URL, in its error
 * body, its headers or an error event of a stream that began; the gateway's credentials are never its
 * callers' to read.
 *
 * <p>The secrets: what its authentication sent ({@link io.agentfuse.gateway.dialect.UpstreamAuth#secretsSent}:
 * its keys, the access tokens it minted, AWS session tokens), the values of the provider's
 * configured {@code headers:}, which the gateway cannot tell from credentials (a tenant's key for an
 * internal proxy, say), and the login of the egress proxy the call went through
 * ({@link ProviderEndpoint#proxySecrets}: its password, and its {@code Proxy-Authorization: Basic}
 * credential in base64, as sent): a value shorter than {@value #SHORTEST_SECRET} characters is not
 * taken for a secret, as replacing it would garble the text (a test key {@code "x"}, a header
 * {@code x-team: ml}). An MCP server's answer is cleared of the proxy's login alone ({@link #of(Collection, String)}):
 * the gateway sends it no credential of its own.
 *
 * <p>The base64 of a secret is not looked for unless it is one of the secrets (the proxy's Basic
 * credential): the gateway sends no other credential of its own in a Basic login, a configured header
 * that holds one is a secret as written, and an echo repeats what it was sent rather than encoding it anew.
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
        return of(secretsOf(provider), text);
    }

    /** {@code text} cleared of {@code secrets} (an {@link UpstreamHttp#proxySecrets}); {@code null} stays {@code null}. */
    public static String of(Collection<String> secrets, String text) {
        return text == null || secrets.isEmpty() ? text : redacted(text, secrets);
    }

    /** {@code headers}, each value cleared of {@code secrets}, in order; {@code headers} itself when there are none. */
    public static MultiMap of(Collection<String> secrets, MultiMap headers) {
        if (secrets.isEmpty()) {
            return headers;
        }
        MultiMap shown = MultiMap.caseInsensitiveMultiMap();
        cleared(headers, secrets, shown::add);
        return shown;
    }

    /** The headers of {@code provider}'s answer, each value cleared of the gateway's credentials, in order. */
    public static List<Map.Entry<String, String>> of(ProviderEndpoint provider, MultiMap headers) {
        List<Map.Entry<String, String>> shown = new ArrayList<>(headers.size());
        cleared(headers, secretsOf(provider), (name, value) -> shown.add(Map.entry(name, value)));
        return shown;
    }

    /** Each of {@code headers}, its value cleared of {@code secrets}, to {@code shown}, in order. */
    private static void cleared(MultiMap headers, Collection<String> secrets, BiConsumer<String, String> shown) {
        for (Map.Entry<String, String> header : headers) {
            shown.accept(header.getKey(), redacted(header.getValue(), secrets));
        }
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
        if (provider.headers().isEmpty() && provider.proxySecrets().isEmpty()) {
            return sent;
        }
        List<String> all = new ArrayList<>(sent);
        all.addAll(provider.headers().values());
        all.addAll(provider.proxySecrets());
        return all;
    }

    private static String redacted(String text, Collection<String> secrets) {
        String shown = text;
        // Whether the text escapes anything at all, asked once: most error bodies do not, and are searched as they are.
        boolean escapes = text.indexOf('\\') >= 0 || text.indexOf('%') >= 0;
        boolean pluses = text.indexOf('+') >= 0;
        for (String secret : secrets) {
            if (secret.length() >= SHORTEST_SECRET) {
                shown = escapes || pluses && secret.indexOf(' ') >= 0 ? withoutWritten(shown, secret)
                        : shown.contains(secret) ? shown.replace(secret, REDACTED) : shown;
            }
        }
        return shown.indexOf(CUT) < 0 ? shown : withoutCutSecrets(shown, secrets);
    }

    /**
     * {@code text} with every place that writes {@code secret}, in any of its {@linkplain #width forms},
     * replaced. Only where its first character may begin is looked at, found by {@link String#indexOf}:
     * the character itself, or an escape ({@code \\}, {@code %}, {@code +} for a space). An error body
     * may be megabytes long, read on the event loop: a char-by-char match from every place took 0.26 to
     * 0.39 s over a plain 32 MB body with four secrets; a text without escapes is searched as it is
     * ({@link #redacted}), 0.12 to 0.14 s. A body of escapes alone still costs about 1 s per 32 MB.
     */
    private static String withoutWritten(String text, String secret) {
        char first = secret.charAt(0);
        int backslash = text.indexOf('\\');
        int percent = text.indexOf('%');
        int plus = first == ' ' ? text.indexOf('+') : -1; // a '+' begins the secret only where it writes its first character
        StringBuilder shown = null;
        int copied = 0;
        int literal = text.indexOf(first);
        for (int at = earliest(literal, backslash, percent, plus); at >= 0; ) {
            int end = endOfWritten(text, at, secret);
            if (end >= 0) {
                shown = shown == null ? new StringBuilder(text.length()) : shown;
                shown.append(text, copied, at).append(REDACTED);
                copied = end;
            }
            int from = end >= 0 ? end : at + 1;
            literal = literal >= 0 && literal < from ? text.indexOf(first, from) : literal;
            backslash = backslash >= 0 && backslash < from ? text.indexOf('\\', from) : backslash;
            percent = percent >= 0 && percent < from ? text.indexOf('%', from) : percent;
            plus = plus >= 0 && plus < from ? text.indexOf('+', from) : plus;
            at = earliest(literal, backslash, percent, plus);
        }
        return shown == null ? text : shown.append(text, copied, text.length()).toString();
    }

    /** The least of four places that is not -1; -1 when all are. */
    private static int earliest(int a, int b, int c, int d) {
        return lesser(lesser(a, b), lesser(c, d));
    }

    private static int lesser(int a, int b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /** Where the text from {@code at} that writes all of {@code secret} ends; -1 when it does not write it. */
    private static int endOfWritten(String text, int at, String secret) {
        int end = at;
        for (int i = 0; i < secret.length(); i++) {
            int width = end < text.length() ? width(text, end, text.length(), secret.charAt(i)) : 0;
            if (width == 0) {
                return -1;
            }
            end += width;
        }
        return end;
    }

    /**
     * How many characters of {@code text} from {@code at} (before {@code limit}) write {@code c}; 0 when they
     * do not. A provider or a proxy that echoes a request may write a secret as it is, JSON-escaped (as a
     * serializer may: {@code \/}, {@code \\}, {@code \"} or <code>&#92;u002b</code>, hex in either case) or
     * percent-encoded (a URL or a form echoed: {@code %2B}, {@code %2f}, or {@code +} for a space), one
     * character one way and the next another: an AWS session token (base64: {@code /}, {@code +},
     * {@code =}) escaped that way is as readable as the token.
     */
    private static int width(String text, int at, int limit, char c) {
        char first = text.charAt(at);
        if (first == '\\' && at + 1 < limit) {
            char second = text.charAt(at + 1);
            if (second == 'u' && at + 6 <= limit && hex(text, at + 2, 4) == c) {
                return 6;
            }
            if (second == c && (c == '/' || c == '\\' || c == '"')) {
                return 2;
            }
        } else if (first == '%' && at + 3 <= limit && hex(text, at + 1, 2) == c) {
            return 3;
        } else if (first == '+' && c == ' ') {
            return 1;
        }
        return first == c ? 1 : 0;
    }

    /** The value of the {@code digits} hex digits of {@code text} from {@code at}; -1 when one is not a hex digit. */
    private static int hex(String text, int at, int digits) {
        int value = 0;
        for (int i = at; i < at + digits; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }

    /**
     * {@code text} without the start of a secret that an excerpt cut short ({@code 'Bearer sk-oai-configu…'}:
     * the gateway quotes a provider's text in excerpts, cut where it is long, and a cut through a key leaves
     * most of it): every run that writes {@value #SHORTEST_SECRET} or more characters of a secret's start, in
     * any of its forms, up to a cut.
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

    /** Where the longest run that writes a start of {@code secret} and ends at {@code cut} begins; -1 when none does. */
    private static int startOfCutSecret(String text, int cut, String secret) {
        int widest = (secret.length() - 1) * 6; // every character a JSON unicode escape
        for (int start = Math.max(0, cut - widest); start <= cut - SHORTEST_SECRET; start++) {
            if (writesStartUpTo(text, start, cut, secret)) {
                return start;
            }
        }
        return -1;
    }

    /**
     * Whether {@code text} from {@code start} to {@code cut} writes {@value #SHORTEST_SECRET} or more of the
     * first characters of {@code secret}, not all of them; the cut may fall inside the last one's escape.
     */
    private static boolean writesStartUpTo(String text, int start, int cut, String secret) {
        int at = start;
        for (int i = 0; i < secret.length() - 1; i++) {
            int width = width(text, at, cut, secret.charAt(i));
            if (width == 0) {
                char first = text.charAt(at);
                return i >= SHORTEST_SECRET && cut - at < 6 && (first == '\\' || first == '%');
            }
            at += width;
            if (at == cut) {
                return i + 1 >= SHORTEST_SECRET;
            }
        }
        return false;
    }
}
