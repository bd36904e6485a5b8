package io.agentfuse.gateway.http;

/**
 * The errors the gateway itself answers with, and their HTTP status and {@code error.type} —
 * the contract of the gateway's error table. Upstream 4xx answers are not here: they are passed
 * through unchanged.
 *
 * <table>
 *   <caption>gateway errors</caption>
 *   <tr><th>error</th><th>status</th><th>{@code error.type}</th><th>when</th></tr>
 *   <tr><td>CIRCUIT_OPEN</td><td>503 + Retry-After</td><td>circuit_open</td><td>every step of the chain was skipped by an open breaker</td></tr>
 *   <tr><td>CIRCUIT_HELD_OPEN</td><td>503 + Retry-After</td><td>circuit_open</td><td>the same, but no breaker of the chain reopens by itself (forced open by an operator, or waiting for the user): {@code Retry-After} is their {@code resetTimeout}, {@code x-should-retry} is false</td></tr>
 *   <tr><td>TIMEOUT</td><td>504</td><td>timeout</td><td>every step that was called timed out</td></tr>
 *   <tr><td>ALL_FALLBACKS_FAILED</td><td>502</td><td>all_fallbacks_failed</td><td>the chain ended in failure otherwise</td></tr>
 *   <tr><td>UNTRANSLATABLE</td><td>400</td><td>invalid_request</td><td>every step was skipped because the request cannot be translated to its dialect (names the field)</td></tr>
 *   <tr><td>UPSTREAM_AUTH_FAILED</td><td>502</td><td>upstream_auth_failed</td><td>the chain ended with a provider refusing the gateway's own key (401/403)</td></tr>
 *   <tr><td>OVERLOADED</td><td>429 + Retry-After</td><td>overloaded</td><td>no step was called and a step's bulkhead was full; a large body found no room (server.LargeBodies); the heap had no room for the answer</td></tr>
 *   <tr><td>NOT_FOUND</td><td>404</td><td>not_found</td><td>a path the gateway does not serve</td></tr>
 *   <tr><td>METHOD_NOT_ALLOWED</td><td>405</td><td>invalid_request</td><td>a served path asked with the wrong method</td></tr>
 *   <tr><td>CONTEXT_WINDOW_FULL</td><td>413</td><td>context_window_full</td><td>context at REJECT after compaction and snipping</td></tr>
 *   <tr><td>INVALID_REQUEST</td><td>400</td><td>invalid_request</td><td>bad JSON, missing or unknown field</td></tr>
 *   <tr><td>MODEL_NOT_FOUND</td><td>404</td><td>model_not_found</td><td>the model is neither configured nor served as a built-in family's</td></tr>
 *   <tr><td>REQUEST_TOO_LARGE</td><td>413</td><td>request_too_large</td><td>body over the size limit</td></tr>
 *   <tr><td>SUBAGENT_LIMIT</td><td>429 + Retry-After</td><td>subagent_limit</td><td>{@code subagents.maxConcurrent} subagent calls are in flight already</td></tr>
 *   <tr><td>UPSTREAM_ERROR</td><td>502</td><td>upstream_error</td><td>a stream already under way broke (sent as a stream error event)</td></tr>
 *   <tr><td>INTERNAL_ERROR</td><td>500</td><td>internal_error</td><td>a fault of the gateway itself: a bug, never a provider's failure</td></tr>
 *   <tr><td>FORBIDDEN</td><td>403</td><td>forbidden</td><td>a {@code Host} not in {@code server.allowedHosts}, or a browser origin not in {@code server.cors.allowedOrigins}</td></tr>
 *   <tr><td>UNSUPPORTED_MEDIA_TYPE</td><td>415</td><td>invalid_request</td><td>a request body that is not {@code application/json}</td></tr>
 *   <tr><td>REQUEST_TIMEOUT</td><td>408</td><td>request_timeout</td><td>a request body that did not arrive within {@code server.headerTimeout}</td></tr>
 *   <tr><td>HEADERS_TOO_LARGE</td><td>431</td><td>request_too_large</td><td>request headers over the HTTP codec's limit</td></tr>
 *   <tr><td>REQUEST_LINE_TOO_LONG</td><td>414</td><td>request_too_large</td><td>a request line over the HTTP codec's limit</td></tr>
 *   <tr><td>SHUTTING_DOWN</td><td>503</td><td>shutting_down</td><td>the gateway is stopping and {@code server.shutdownGrace} ran out before the answer (a stream under way gets it as its error event); {@code x-should-retry: true}: another instance will answer</td></tr>
 *   <tr><td>BUDGET_EXCEEDED</td><td>429</td><td>budget_exceeded</td><td>a budget that applies has nothing left in its window (docs/design.md §11); {@code error.code} {@code insufficient_quota}, {@code x-should-retry: false}, {@code Retry-After} only when the window ends within 60 s</td></tr>
 *   <tr><td>BUDGET_UNAVAILABLE</td><td>503 + Retry-After</td><td>budget_unavailable</td><td>a budget cannot be checked now: the fleet's Redis is away and {@code state.redis.budgetOnLoss} refuses, or the budgets count as many windows as they may</td></tr>
 *   <tr><td>INVALID_API_KEY</td><td>401</td><td>invalid_api_key</td><td>{@code clients:} is configured and the request carries none of its keys</td></tr>
 * </table>
 * UPSTREAM_ERROR, INTERNAL_ERROR, the six after them and BUDGET_UNAVAILABLE are not in the contract's
 * tables: they are the gateway's answers to cases it leaves open.
 *
 * <p>{@code GatewayError.CIRCUIT_OPEN.status() == 503}
 */
public enum GatewayError {
    CIRCUIT_OPEN(503, "circuit_open"),
    CIRCUIT_HELD_OPEN(503, "circuit_open"),
    TIMEOUT(504, "timeout"),
    ALL_FALLBACKS_FAILED(502, "all_fallbacks_failed"),
    UNTRANSLATABLE(400, "invalid_request"),
    UPSTREAM_AUTH_FAILED(502, "upstream_auth_failed"),
    OVERLOADED(429, "overloaded"),
    NOT_FOUND(404, "not_found"),
    METHOD_NOT_ALLOWED(405, "invalid_request"),
    CONTEXT_WINDOW_FULL(413, "context_window_full"),
    INVALID_REQUEST(400, "invalid_request"),
    MODEL_NOT_FOUND(404, "model_not_found"),
    REQUEST_TOO_LARGE(413, "request_too_large"),
    SUBAGENT_LIMIT(429, "subagent_limit"),
    UPSTREAM_ERROR(502, "upstream_error"),
    INTERNAL_ERROR(500, "internal_error"),
    FORBIDDEN(403, "forbidden"),
    UNSUPPORTED_MEDIA_TYPE(415, "invalid_request"),
    REQUEST_TIMEOUT(408, "request_timeout"),
    HEADERS_TOO_LARGE(431, "request_too_large"),
    REQUEST_LINE_TOO_LONG(414, "request_too_large"),
    SHUTTING_DOWN(503, "shutting_down"),
    BUDGET_EXCEEDED(429, "budget_exceeded"),
    BUDGET_UNAVAILABLE(503, "budget_unavailable"),
    INVALID_API_KEY(401, "invalid_api_key");

    private final int status;
    private final String type;

    GatewayError(int status, String type) {
        this.status = status;
        this.type = type;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The {@code error.type} in the body. */
    public String type() {
        return type;
    }

    /**
     * The HTTP status of the first error whose {@code error.type} is {@code type} (types shared by
     * several errors name the contract's one first: {@code invalid_request} is 400), or -1 for a
     * type that is not the gateway's; for dialects whose error bodies carry the status.
     */
    public static int statusOf(String type) {
        for (GatewayError error : values()) {
            if (error.type.equals(type)) {
                return error.status;
            }
        }
        return -1;
    }

}
