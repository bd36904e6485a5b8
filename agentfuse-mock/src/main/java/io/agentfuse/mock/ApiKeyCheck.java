package io.agentfuse.mock;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

/**
 * What OpenAI and Anthropic answer a request that carries no API key at all, before they read its
 * body: OpenAI 401 {@code "You didn't provide an API key. ..."} when there is no {@code Authorization:
 * Bearer} key, Anthropic 401 {@code authentication_error "x-api-key header is required"} when there is
 * neither an {@code x-api-key} nor a bearer token. Any key that is present is taken: the mock knows no
 * accounts (the Bedrock, Gemini, Vertex AI and Azure routes check theirs, {@link MockCredentials}).
 * Stateless.
 */
final class ApiKeyCheck {

    /** OpenAI's message for a request without a key. */
    static final String OPENAI_NO_KEY = "You didn't provide an API key. You need to provide your API key in an"
            + " Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field"
            + " (with blank username) if you're accessing the API from your browser and are prompted for a username."
            + " You can obtain an API key from https://platform.openai.com/account/api-keys.";
    /** Anthropic's message for a request without a key. */
    static final String ANTHROPIC_NO_KEY = "x-api-key header is required";

    private ApiKeyCheck() {
    }

    /** OpenAI's 401 body for a request with {@code headers}, or {@code null} when it carries a bearer key. */
    static JsonObject openAi(MultiMap headers) {
        return hasBearer(headers) ? null : new JsonObject().put("error", new JsonObject().put("message", OPENAI_NO_KEY)
                .put("type", "invalid_request_error").put("param", null).put("code", null));
    }

    /** Anthropic's 401 body for a request with {@code headers}, or {@code null} when it carries a key or a token. */
    static JsonObject anthropic(MultiMap headers) {
        String key = headers.get("x-api-key");
        return key != null && !key.isBlank() || hasBearer(headers) ? null : new JsonObject().put("type", "error")
                .put("error", new JsonObject().put("type", "authentication_error").put("message", ANTHROPIC_NO_KEY));
    }

    /**
     * The token of an {@code Authorization: Bearer} header, trimmed (empty when none follows), or {@code null}
     * for a header of another scheme or none: the one reading of a bearer token the mock's routes share.
     */
    static String bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : null;
    }

    private static boolean hasBearer(MultiMap headers) {
        String token = bearer(headers.get("authorization"));
        return token != null && !token.isEmpty();
    }
}
