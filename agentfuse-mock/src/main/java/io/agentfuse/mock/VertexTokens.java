package io.agentfuse.mock;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Vertex AI mock's OAuth2 token endpoint ({@code POST /oauth2/token}, the JWT-bearer grant that
 * service accounts use) and the access tokens it issued. An assertion is accepted as Google accepts
 * it: an RS256 JWT from a {@linkplain #trust trusted} account ({@code iss}), for Google's token
 * endpoint or this one ({@code aud}), with a {@code scope}, valid now and for at most an hour, whose signature the
 * account's public key verifies (the JDK's {@code SHA256withRSA}). Anything else gets Google's
 * {@code {"error": "invalid_grant", "error_description": ...}} (400). A token is valid for the
 * configured lifetime and for its account's project only.
 *
 * <p>Thread-safe.
 */
final class VertexTokens {

    /** The path of the token endpoint. */
    static final String PATH = "/oauth2/token";
    private static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    private static final Duration MAX_ASSERTION_LIFETIME = Duration.ofHours(1);
    private static final Duration SKEW = Duration.ofMinutes(5);
    /**
     * The audiences Google's token endpoint accepts; google-auth-library always names the first, whatever
     * the file's {@code token_uri}, so the mock accepts them besides its own address.
     */
    private static final List<String> GOOGLE_AUDIENCES = List.of("https://oauth2.googleapis.com/token",
            "https://www.googleapis.com/oauth2/v4/token", "https://accounts.google.com/o/oauth2/token");

    /** A token issued to {@code account}, valid until {@code expiresAt}. */
    record Issued(MockServiceAccount account, Instant expiresAt) {
    }

    private final Duration lifetime;
    private final Clock clock;
    private final Map<String, MockServiceAccount> trusted = new ConcurrentHashMap<>();
    private final Map<String, Issued> issued = new ConcurrentHashMap<>();

    VertexTokens(Duration lifetime, Clock clock) {
        this.lifetime = Objects.requireNonNull(lifetime, "lifetime");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Trusts assertions signed by {@code account}. */
    void trust(MockServiceAccount account) {
        trusted.put(account.clientEmail(), account);
    }

    /** The live token {@code accessToken}, or {@code null} when it is unknown or expired. */
    Issued check(String accessToken) {
        Issued token = accessToken == null ? null : issued.get(accessToken);
        return token == null || !clock.instant().isBefore(token.expiresAt()) ? null : token;
    }

    /** Ends the life of every token issued so far. */
    void expireAll() {
        issued.replaceAll((token, live) -> new Issued(live.account(), Instant.EPOCH));
    }

    /** Answers a token request ({@link #PATH}). */
    void token(RoutingContext ctx) {
        Map<String, String> form = form(ctx.body().asString());
        if (!JWT_BEARER.equals(form.get("grant_type"))) {
            refuse(ctx, "unsupported_grant_type", "Invalid grant_type: " + form.getOrDefault("grant_type", ""));
            return;
        }
        String problem = problem(form.get("assertion"));
        if (problem != null) {
            refuse(ctx, problem.startsWith("Invalid oauth scope") ? "invalid_scope" : "invalid_grant", problem);
            return;
        }
        MockServiceAccount account = trusted.get(claims(form.get("assertion")).getString("iss"));
        String accessToken = "ya29.mock-" + UUID.randomUUID();
        issued.put(accessToken, new Issued(account, clock.instant().plus(lifetime)));
        MockResponder.answerAtOnce(ctx.request(), 200, Map.of(), new JsonObject().put("access_token", accessToken)
                .put("expires_in", lifetime.toSeconds()).put("token_type", "Bearer"));
    }

    /** What Google would refuse in {@code assertion}, or {@code null}. */
    private String problem(String assertion) {
        String[] parts = assertion == null ? new String[0] : assertion.split("\\.");
        JsonObject header;
        JsonObject claims;
        try {
            header = parts.length == 3 ? new JsonObject(decode(parts[0])) : null;
            claims = parts.length == 3 ? new JsonObject(decode(parts[1])) : null;
        } catch (DecodeException | IllegalArgumentException e) {
            header = null;
            claims = null;
        }
        if (header == null || claims == null || !"RS256".equals(header.getString("alg"))) {
            return "Invalid JWT: the assertion is not an RS256 JSON Web Token.";
        }
        MockServiceAccount account = trusted.get(String.valueOf(claims.getValue("iss")));
        if (account == null) {
            return "Invalid grant: account not found";
        }
        Object audience = claims.getValue("aud");
        if (!account.tokenUri().equals(audience) && !GOOGLE_AUDIENCES.contains(audience)) {
            return "Invalid JWT: Failed audience check. The right audience is " + GOOGLE_AUDIENCES.get(0);
        }
        Instant now = clock.instant();
        long issuedAt = claims.getValue("iat") instanceof Number n ? n.longValue() : Long.MIN_VALUE;
        long expires = claims.getValue("exp") instanceof Number n ? n.longValue() : Long.MIN_VALUE;
        if (expires - issuedAt > MAX_ASSERTION_LIFETIME.toSeconds() || now.isBefore(Instant.ofEpochSecond(issuedAt).minus(SKEW))
                || !now.isBefore(Instant.ofEpochSecond(expires).plus(SKEW))) {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
                    + "Check your iat and exp values in the JWT claim.";
        }
        if (!(claims.getValue("scope") instanceof String scope) || scope.isBlank()) {
            return "Invalid oauth scope or ID token audience provided.";
        }
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(account.publicKey());
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            return rsa.verify(Base64.getUrlDecoder().decode(parts[2])) ? null : "Invalid JWT Signature.";
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return "Invalid JWT Signature.";
        }
    }

    private static JsonObject claims(String assertion) {
        return new JsonObject(decode(assertion.split("\\.")[1]));
    }

    private static String decode(String base64Url) {
        return new String(Base64.getUrlDecoder().decode(base64Url), StandardCharsets.UTF_8);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : (body == null ? "" : body).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static void refuse(RoutingContext ctx, String error, String description) {
        MockResponder.answerAtOnce(ctx.request(), 400, Map.of(),
                new JsonObject().put("error", error).put("error_description", description));
    }
}
