package io.agentfuse.gateway.http;

import io.vertx.core.MultiMap;

import java.util.Locale;

/**
 * Which signals a caller's client decides its retries by, told from its request headers, so that
 * {@link GatewayErrors} can say "stop" or "retry" in words that client obeys.
 *
 * <ul>
 *   <li>{@link #SHOULD_RETRY_HEADER} — the OpenAI and Anthropic SDKs (and what is built on them: the
 *       OpenAI Agents SDK, Claude Code) obey {@code x-should-retry} before the status; so
 *       do, for the gateway's purposes, callers it does not recognise, who get the contract's
 *       statuses unchanged.</li>
 *   <li>{@link #STATUS_ONLY} — Codex ({@code originator: codex_*} or a {@code codex} user agent) and
 *       the Vercel AI SDK ({@code ai/<version> ai-sdk-provider-utils/<version>} as user agent) ignore {@code x-should-retry} and retry
 *       every 5xx (Codex up to 30 requests over half a minute, the AI SDK twice after 2 s and 4 s), and
 *       every 429. Only a 400 ends Codex's loop with the gateway's own message; the AI SDK stops at any
 *       4xx but 408, 409 and 429. OpenClaw ({@code user-agent: undici} and no {@code x-stainless-*}
 *       headers) retries a 5xx turn up to 8 times, waiting out a {@code Retry-After} of up to 90 s.
 *       LangChain.js runs the SDKs with their retries off and retries every 5xx itself, six times over
 *       a minute, whatever {@code x-should-retry} says; it stops at 400–407, 409, 413 and an
 *       {@code error.code} of {@code insufficient_quota}, which its Anthropic model never finds in
 *       an Anthropic error body. It is told by its OpenAI model's user agent
 *       ({@code langchainjs-openai/…}, {@code langchainjs-azure-openai/…}) and by the browser-access
 *       header its Anthropic model always sends ({@code anthropic-dangerous-direct-browser-access})
 *       beside the bare Anthropic SDK's user agent, on a request no browser made (no {@code origin}). The
 *       Google GenAI SDKs ({@code google-genai-sdk/<version>} in {@code user-agent} or
 *       {@code x-goog-api-client}) retry 408, 429 and every 5xx but 501 by default (the Java one four
 *       times), and Gemini CLI ({@code GeminiCLI/<version>}) on top of the JavaScript one up to ten
 *       times with a backoff of seconds. A final refusal is sent to them all as 400.</li>
 * </ul>
 *
 * <p>{@code ClientRetryRules.of(request.headers())}; stateless and thread-safe.
 */
public enum ClientRetryRules {
    /** The client obeys {@code x-should-retry}; the contract's statuses are kept. */
    SHOULD_RETRY_HEADER,
    /** The client decides by status and {@code Retry-After} only; final refusals are sent as 400. */
    STATUS_ONLY;

    /** The rules of the client that sent {@code headers}. */
    public static ClientRetryRules of(MultiMap headers) {
        if (headers == null) {
            return SHOULD_RETRY_HEADER;
        }
        String originator = headers.get("originator");
        String agent = headers.get("user-agent");
        String lowerAgent = agent == null ? "" : agent.toLowerCase(Locale.ROOT);
        boolean codex = (originator != null && originator.toLowerCase(Locale.ROOT).startsWith("codex"))
                || lowerAgent.startsWith("codex");
        boolean aiSdk = lowerAgent.startsWith("ai/") || lowerAgent.contains("ai-sdk/")
                || lowerAgent.contains("ai-sdk-provider-utils/");
        // OpenClaw's model transport: undici's own fetch, without the SDK headers of the clients that read x-should-retry.
        boolean openClaw = "undici".equals(lowerAgent) && headers.get("x-stainless-lang") == null;
        // Its Anthropic model: the bare SDK's user agent (Claude Code, which sends the header too, has its own).
        boolean langChainJs = lowerAgent.startsWith("langchainjs-") || (lowerAgent.startsWith("anthropic/js")
                && "true".equals(headers.get("anthropic-dangerous-direct-browser-access")) && headers.get("origin") == null);
        String googleClient = headers.get("x-goog-api-client");
        boolean google = lowerAgent.contains("google-genai-sdk/") || lowerAgent.startsWith("geminicli/")
                || googleClient != null && googleClient.toLowerCase(Locale.ROOT).contains("google-genai-sdk/");
        return codex || aiSdk || openClaw || langChainJs || google ? STATUS_ONLY : SHOULD_RETRY_HEADER;
    }
}
