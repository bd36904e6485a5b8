package io.agentfuse.gateway;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.http.JsonFaults;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.DecodeException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's answers to requests its routes did not answer: an unknown path (404), a wrong
 * method (405, with the {@code Allow} header of {@link AllowedMethods}), a body that could not be read
 * or was too large (400, 413), a bug (500) — always
 * JSON with {@code error.type}, in the dialect the path or headers suggest. Stateless.
 */
final class RouteFailures {

    private static final Logger LOG = LoggerFactory.getLogger(RouteFailures.class);

    private RouteFailures() {
    }

    /** Answers the requests no route of {@code router} took, and those a route failed without answering. */
    static void answerUnrouted(Router router) {
        router.errorHandler(404, ctx -> unrouted(ctx, new GatewayException(GatewayError.NOT_FOUND,
                "no endpoint at " + ctx.request().method() + " " + ctx.request().path()
                        + "; the model endpoints are POST /v1/chat/completions, POST /v1/responses, POST /v1/messages"
                        + " and POST /v1beta/models/{model}:generateContent (:streamGenerateContent?alt=sse, :countTokens)"
                        + (ctx.request().path().startsWith("/v1/") ? "" : " (does the client's base URL lack /v1?)"))));
        router.errorHandler(405, ctx -> {
            String allowed = AllowedMethods.of(router, ctx.normalizedPath());
            if (!allowed.isEmpty()) {
                ctx.response().putHeader("allow", allowed);
            }
            unrouted(ctx, new GatewayException(GatewayError.METHOD_NOT_ALLOWED, ctx.request().method() + " is not allowed on "
                    + ctx.request().path() + (allowed.isEmpty() ? "" : "; it answers " + allowed)));
        });
        router.errorHandler(500, ctx -> {
            logBug(ctx);
            unrouted(ctx, new GatewayException(GatewayError.INTERNAL_ERROR, "the gateway failed unexpectedly"));
        });
    }

    /** A request no route took: answered in JSON of the dialect its path or headers suggest. */
    private static void unrouted(RoutingContext ctx, GatewayException error) {
        if (!ctx.response().ended() && !ctx.response().closed()) {
            GatewayErrors.respond(ctx.response(), Dialects.ofCaller(ctx.request().path(), ctx.request().headers()), error);
        }
    }

    /** A failure the pipeline did not answer itself: an oversized or unreadable body, or a bug. */
    static void failed(RoutingContext ctx, Dialect dialect, long maxBodySize) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        GatewayException error;
        if (ctx.statusCode() == 413) {
            error = tooLarge(maxBodySize);
        } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            // A framework's or parser's message would name its insides: said in our words, or not at all.
            String cause = ctx.failure() instanceof DecodeException decode ? ": " + JsonFaults.describe(decode)
                    : " (HTTP " + ctx.statusCode() + ")";
            error = new GatewayException(GatewayError.INVALID_REQUEST, "the request could not be read" + cause);
        } else {
            logBug(ctx);
            error = new GatewayException(GatewayError.INTERNAL_ERROR, "the gateway failed unexpectedly");
        }
        GatewayErrors.respond(ctx.response(), dialect, error);
    }

    /**
     * Logs a request a route failed with a bug, answered 500: else nothing would say what went wrong.
     * The path, not the whole target: a query may carry a key ({@code ?key=}).
     */
    private static void logBug(RoutingContext ctx) {
        LOG.atError().setCause(ctx.failure()).log("{} {} failed inside the gateway (answered 500)",
                ctx.request().method(), ctx.request().path());
    }

    /** The answer to a body over {@code server.maxBodySize}. */
    static GatewayException tooLarge(long maxBodySize) {
        return new GatewayException(GatewayError.REQUEST_TOO_LARGE, "the request body is larger than "
                + maxBodySize + " bytes (server.maxBodySize)");
    }
}
