package io.agentfuse.gateway.mcp;

import io.agentfuse.core.HttpStatusException;

/**
 * A {@code tools/call} that reached the server and failed: a result with {@code isError: true},
 * a JSON-RPC error, an answer that is not a JSON-RPC response, or a non-2xx status. It carries the
 * server's answer, which the proxy relays untouched once the guard gives up. Its status is the
 * answer's own when that is not 2xx, else 500, so the classifier sees the first three as
 * {@code SERVER_ERROR} (the seed's "tool unavailable") and a 4xx as the caller's fault.
 */
final class McpToolFailure extends HttpStatusException {

    /** How the call failed, as the {@code outcome} tag of {@code agentfuse_mcp_tool_calls_total}. */
    enum Kind {
        IS_ERROR("is_error"), RPC_ERROR("rpc_error"), MALFORMED("malformed"), HTTP_STATUS("http_error");

        final String tag;

        Kind(String tag) {
            this.tag = tag;
        }
    }

    private final transient McpAnswer answer;
    private final Kind kind;

    McpToolFailure(McpAnswer answer, Kind kind) {
        super(builder(kind == Kind.HTTP_STATUS ? answer.status() : 500).retryAfter(answer.headers().get("retry-after")));
        this.answer = answer;
        this.kind = kind;
    }

    McpAnswer answer() {
        return answer;
    }

    Kind kind() {
        return kind;
    }

    /** Whether the server's transport failed (a 5xx), as opposed to the tool answering badly. */
    boolean isTransportFailure() {
        return kind == Kind.HTTP_STATUS && answer.status() >= 500;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // A tool's bad answer is an expected outcome, not a bug: no stack to capture.
        return this;
    }
}
