package io.agentfuse.gateway.http;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.InvalidRequestException;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Optional;

/**
 * The one place where gateway errors become HTTP answers: status, {@code Retry-After}, and a
 * JSON body in the caller's dialect — OpenAI {@code {"error": {"message", "type", "param": null,
 * "code"}}}, Anthropic {@code {"type": "error", "error": {"type", "message"}}} — or, once a
 * stream has begun, an SSE error event of that dialect. Admin API errors, which have no dialect,
 * are answered here too ({@link #respondAdmin}).
 *
 * <p>Every answer says whether the caller should retry, in the words its client obeys
 * ({@link ClientRetryRules}): the gateway has already retried and fallen back, so a client's retry
 * only helps where a refusal is short-lived ({@link #shouldRetry}).
 * <ul>
 *   <li>{@value #SHOULD_RETRY} (the OpenAI and Anthropic SDKs, Claude Code, the OpenAI Agents SDK);</li>
 *   <li>{@code Retry-After} (whole seconds) and, beside it, {@value #RETRY_AFTER_MS} (the exact wait;
 *       the OpenAI SDK and the Vercel AI SDK prefer it);</li>
 *   <li>{@code error.code} {@value #FINAL_CODE} on a final refusal whose status LangChain.js would
 *       retry (it stops at 400–407, 409 and that code, whatever the headers say), in the OpenAI dialects,
 *       and on a spent budget's refusal in every dialect whose error has a string code or none;</li>
 *   <li>for clients that read only the status (Codex, the Vercel AI SDK), a final refusal is sent
 *       as 400 with the same {@code error.type} and message: the one status both stop at (a spent
 *       budget keeps its contract's 429 {@value #FINAL_CODE}).</li>
 * </ul>
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * GatewayErrors.respond(ctx.response(), Dialects.ANTHROPIC,
 *         GatewayException.circuitOpen("claude-sonnet-4, claude-haiku-4, gpt-4o-mini: open", Duration.ofSeconds(30)));
 * }</pre>
 */
public final class GatewayErrors {

    /** The JSON-RPC error code of the gateway's own refusals of MCP requests (a server error in JSON-RPC's range). */
    public static final int MCP_GATEWAY_ERROR = -32001;

    /** The header that tells the OpenAI and Anthropic SDKs whether to retry. */
    public static final String SHOULD_RETRY = HttpStatusException.SHOULD_RETRY;
    /** The wait in milliseconds, beside {@code Retry-After}. */
    public static final String RETRY_AFTER_MS = "retry-after-ms";
    /** The {@code error.code} LangChain.js and the OpenAI SDKs' users treat as final. */
    public static final String FINAL_CODE = "insufficient_quota";

    /**
     * The longest {@code Retry-After} of a {@code circuit_open} that a client should wait out and
     * retry: its retry then arrives as the breaker half-opens. Longer waits are not worth blocking an SDK for.
     */
    public static final Duration LONGEST_RETRY_WORTH_WAITING = Duration.ofSeconds(20);

    /** The longest wait until a spent budget's window ends that is sent as {@code Retry-After}. */
    public static final Duration LONGEST_BUDGET_RETRY_AFTER = Duration.ofSeconds(60);

    private GatewayErrors() {
    }

    /**
     * Whether a client should retry {@code failure}: only a refusal that ends soon — a
     * {@code circuit_open} that reopens within {@link #LONGEST_RETRY_WORTH_WAITING}, a full bulkhead
     * ({@code overloaded}) or subagent limit with such a wait — and a request cut short by the
     * gateway's shutdown ({@code shutting_down}: another instance takes the retry). Not 502 or 504
     * (retried and fallen back already), not another 4xx (the same request fails the same way), not a
     * longer or unknown wait.
     */
    public static boolean shouldRetry(GatewayException failure) {
        GatewayError error = failure.error();
        if (error == GatewayError.SHUTTING_DOWN) {
            return true;
        }
        boolean transientKind = error == GatewayError.CIRCUIT_OPEN || error == GatewayError.OVERLOADED
                || error == GatewayError.SUBAGENT_LIMIT;
        return transientKind && failure.retryAfter()
                .map(wait -> shouldRetryCircuitOpen(Long.parseLong(retryAfterSeconds(wait))))
                .orElse(false);
    }

    /**
     * Whether a client should retry a refusal by an open breaker that sent {@code Retry-After:
     * retryAfterSeconds} (negative: none): only when it reopens within {@link #LONGEST_RETRY_WORTH_WAITING}.
     */
    public static boolean shouldRetryCircuitOpen(long retryAfterSeconds) {
        return retryAfterSeconds >= 0 && retryAfterSeconds <= LONGEST_RETRY_WORTH_WAITING.getSeconds();
    }

    /** The error body for {@code error} in {@code dialect}. */
    public static JsonObject body(Dialect dialect, GatewayError error, String message) {
        return dialect.errorBody(error.type(), message);
    }

    /** Answers {@code response} with {@code failure} in {@code dialect}, for a client of unknown rules. */
    public static Future<Void> respond(HttpServerResponse response, Dialect dialect, GatewayException failure) {
        return respond(response, dialect, failure, ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    /** Answers {@code response} with {@code failure} in {@code dialect}, in the words a client of {@code rules} obeys. */
    public static Future<Void> respond(HttpServerResponse response, Dialect dialect, GatewayException failure,
                                       ClientRetryRules rules) {
        boolean retry = shouldRetry(failure);
        int status = statusFor(failure.error(), retry, rules);
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .putHeader(SHOULD_RETRY, Boolean.toString(retry));
        retryAfterHeader(failure).ifPresent(wait -> response.putHeader("retry-after", retryAfterSeconds(wait))
                .putHeader(RETRY_AFTER_MS, Long.toString(Math.max(0, wait.toMillis()))));
        String code = !retry && retriedByLangChain(status) ? FINAL_CODE : failure.error().type();
        JsonObject body = dialect.errorBody(failure.error().type(), failure.getMessage(), code);
        failure.retryAfter().ifPresent(wait -> dialect.addRetryDelay(body, wait));
        // A body that repeats the HTTP status (Google's error.code, which Gemini CLI retries by) says the one sent.
        if (body.getValue("error") instanceof JsonObject error && error.getValue("code") instanceof Integer) {
            error.put("code", status);
        } else if (failure.error() == GatewayError.BUDGET_EXCEEDED && body.getValue("error") instanceof JsonObject error) {
            // The contract's final code in every dialect (docs/design.md §11): Anthropic's error has no code of its own.
            error.put("code", FINAL_CODE);
        }
        return response.end(body.encode());
    }

    /**
     * The status sent for {@code error}: a final refusal goes to a status-only client as 400, except
     * {@code budget_exceeded}, whose 429 with {@value #FINAL_CODE} is the contract (docs/design.md §11) and
     * is already final for Codex; the Vercel AI SDK retries it at most twice.
     */
    static int statusFor(GatewayError error, boolean shouldRetry, ClientRetryRules rules) {
        int status = error.status();
        if (error == GatewayError.BUDGET_EXCEEDED) {
            return status;
        }
        boolean retriedByStatus = status >= 500 || status == 408 || status == 409 || status == 429;
        return rules == ClientRetryRules.STATUS_ONLY && !shouldRetry && retriedByStatus ? 400 : status;
    }

    /** Whether LangChain.js retries an answer of {@code status} (it stops at 400–407 and 409). */
    private static boolean retriedByLangChain(int status) {
        return !(status >= 400 && status <= 407 || status == 409);
    }
    /** Answers {@code response} with a 400 {@code invalid_request} for a request that failed validation. */
    public static Future<Void> respond(HttpServerResponse response, Dialect dialect, InvalidRequestException invalid) {
        return respond(response, dialect, new GatewayException(GatewayError.INVALID_REQUEST, invalid.getMessage()));
    }

    /** The SSE event that ends a stream already under way with {@code error}. */
    public static SseEvent streamEvent(Dialect dialect, GatewayError error, String message) {
        return dialect.errorEvent(error.type(), message);
    }

    /**
     * Answers an admin API request with {@code status} and the body
     * {@code {"error": {"type": type, "message": message}}}: the admin API has no LLM dialect.
     */
    public static Future<Void> respondAdmin(HttpServerResponse response, int status, String type, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json").putHeader(SHOULD_RETRY, "false");
        return response.end(new JsonObject().put("error", new JsonObject().put("type", type).put("message", message)).encode());
    }

    /**
     * Answers an MCP request with {@code failure} as a JSON-RPC error (id {@code null}, code
     * {@value #MCP_GATEWAY_ERROR}, {@code error.data.type} the gateway's error type) under the
     * error's HTTP status: MCP clients read the message, and the status for authentication.
     */
    public static Future<Void> respondMcp(HttpServerResponse response, GatewayException failure) {
        response.setStatusCode(failure.error().status()).putHeader("content-type", "application/json")
                .putHeader(SHOULD_RETRY, Boolean.toString(shouldRetry(failure)));
        retryAfterHeader(failure).ifPresent(wait -> response.putHeader("retry-after", retryAfterSeconds(wait)));
        JsonObject error = new JsonObject().put("code", MCP_GATEWAY_ERROR).put("message", failure.getMessage())
                .put("data", new JsonObject().put("type", failure.error().type()));
        return response.end(new JsonObject().put("jsonrpc", "2.0").putNull("id").put("error", error).encode());
    }

    /**
     * The wait {@code failure} sends as {@code Retry-After}: its own, except a spent budget's beyond
     * {@link #LONGEST_BUDGET_RETRY_AFTER} (a client that waits out any {@code Retry-After} would hang
     * until the window ends; the {@code x-agentfuse-budget} header says when that is).
     */
    private static Optional<Duration> retryAfterHeader(GatewayException failure) {
        return failure.retryAfter().filter(wait -> failure.error() != GatewayError.BUDGET_EXCEEDED
                || wait.compareTo(LONGEST_BUDGET_RETRY_AFTER) <= 0);
    }

    /** {@code wait} as a {@code Retry-After} value: whole seconds, rounded up, at least 1. */
    public static String retryAfterSeconds(Duration wait) {
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return Long.toString(Math.max(1, seconds));
    }
}
