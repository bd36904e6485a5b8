package io.agentfuse.gateway.admin;

import io.vertx.core.http.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The headers that keep a browser from turning the dashboard and the admin API against their
 * operator: no other site may frame them ({@code X-Frame-Options: DENY} and
 * {@code frame-ancestors 'none'}: the operator buttons cannot be clicked through a page laid over
 * them), no answer is sniffed into another type ({@code X-Content-Type-Options: nosniff}), and a
 * {@code Content-Security-Policy}: for the admin API's JSON and events, nothing at all may load;
 * for the dashboard, exactly its own inline script and style (by their SHA-256, so an injected
 * one does not run), requests to the gateway itself, and nothing else. No referrer leaves either.
 * Stateless and thread-safe.
 */
public final class BrowserProtection {

    /** The policy of every admin API answer: it is data, never a page. */
    static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private static final Pattern SCRIPTS = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLES = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);

    private BrowserProtection() {
    }

    /** Puts the headers of an admin API answer on {@code response}. */
    public static void api(HttpServerResponse response) {
        common(response).putHeader("content-security-policy", API_POLICY);
    }

    /** Puts the headers of the page whose policy is {@code policy} ({@link #pagePolicy}) on {@code response}. */
    static void page(HttpServerResponse response, String policy) {
        common(response).putHeader("content-security-policy", policy);
    }

    /**
     * The policy of an HTML page whose scripts and styles are all inline ({@code <script>} and
     * {@code <style>} without attributes): each allowed by its hash, the page's own origin for its
     * requests and event stream, {@code data:} images (the page's empty icon), nothing else.
     */
    static String pagePolicy(String html) {
        return "default-src 'none'; script-src " + hashes(SCRIPTS.matcher(html)) + "; style-src " + hashes(STYLES.matcher(html))
                + "; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    }

    private static HttpServerResponse common(HttpServerResponse response) {
        return response.putHeader("x-content-type-options", "nosniff").putHeader("x-frame-options", "DENY")
                .putHeader("referrer-policy", "no-referrer");
    }

    private static String hashes(Matcher blocks) {
        StringBuilder sources = new StringBuilder();
        while (blocks.find()) {
            sources.append(sources.length() == 0 ? "" : " ").append("'sha256-").append(sha256(blocks.group(1))).append('\'');
        }
        return sources.length() == 0 ? "'none'" : sources.toString();
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every Java platform has SHA-256", impossible);
        }
    }
}
