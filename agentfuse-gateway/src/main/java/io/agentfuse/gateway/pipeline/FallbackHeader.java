package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.AnsweredFailure;

import java.util.List;

/**
 * Writes the {@code x-agentfuse-fallbacks} header: each step that was skipped or failed before
 * the answer (or before giving up), in order, as {@code model=reason}, separated by {@code "; "}:
 *
 * <pre>
 * x-agentfuse-fallbacks: claude-sonnet-4=circuit_open; claude-haiku-4=SERVER_ERROR(HTTP 503)
 * </pre>
 *
 * (a model its provider no longer serves: {@code gpt-5=ERROR(HTTP 404 model refused)}; the gateway's key refused:
 * {@code claude-sonnet-4=ERROR(HTTP 401 credentials refused)}).
 *
 * Reasons: {@code budget_exceeded} (a spent budget passed the request to its {@code onExhausted}
 * fallback; always first), {@code circuit_open}, {@code bulkhead_full}, {@code untranslatable}, or the
 * {@link io.agentfuse.core.Outcome} of a failed step with the HTTP status when there was one.
 * When the answering step was given the request in another dialect and some of the caller's fields
 * were left out on the way (see the provider packages' translation table), it ends the list as
 * {@code model=dropped(field field ...)}:
 *
 * <pre>
 * x-agentfuse-fallbacks: claude-sonnet-4=SERVER_ERROR(HTTP 500); gpt-4o-mini=dropped(metadata thinking context_management)
 * </pre>
 * The value is one line of printable ASCII, at most {@value #MAX_LENGTH} characters (cut with
 * {@code "..."}), so that no model name or error text can break or bloat the response head.
 *
 * <p>Stateless and thread-safe.
 */
final class FallbackHeader {

    /** The header's name. */
    static final String NAME = ResponseHeaders.PREFIX + "fallbacks";
    /** The reason of a request a spent budget passed to its {@code onExhausted} fallback. */
    static final String BUDGET_EXCEEDED = "budget_exceeded";
    /** The longest value written. */
    static final int MAX_LENGTH = 512;

    private FallbackHeader() {
    }

    /** The header value for {@code passed}, or {@code null} when nothing was passed over. */
    static String format(List<StepFailure> passed) {
        return format(passed, null, List.of());
    }

    /**
     * The header value for {@code passed} and the answering step {@code answered} (or {@code null}),
     * whose request left out {@code dropped}; {@code null} when there is nothing to say.
     */
    static String format(List<StepFailure> passed, String answered, List<String> dropped) {
        if (passed.isEmpty() && dropped.isEmpty()) {
            return null;
        }
        StringBuilder value = new StringBuilder();
        appendPassed(value, passed);
        if (answered != null && !dropped.isEmpty()) {
            value.append(value.length() > 0 ? "; " : "").append(answered).append("=dropped(")
                    .append(String.join(" ", dropped)).append(')');
        }
        return bounded(ascii(value));
    }

    private static void appendPassed(StringBuilder value, List<StepFailure> passed) {
        for (StepFailure failure : passed) {
            if (value.length() > 0) {
                value.append("; ");
            }
            value.append(failure.step()).append('=').append(reasonOf(failure));
            String status = statusOf(failure);
            if (status != null) {
                value.append('(').append(status).append(')');
            }
        }
    }

    /**
     * The header value when a spent budget passed the request from {@code asked} to another model
     * ({@code asked=budget_exceeded}), followed by {@code rest} (the steps passed over after that, or {@code null}).
     */
    static String budgetExceeded(String asked, String rest) {
        return bounded(ascii(asked + "=" + BUDGET_EXCEEDED + (rest == null ? "" : "; " + rest)));
    }

    /** The short reason of one step, also the {@code reason} tag of the fallback metric. */
    static String reasonOf(StepFailure failure) {
        return switch (failure.kind()) {
            case CIRCUIT_OPEN -> "circuit_open";
            case BULKHEAD_FULL -> "bulkhead_full";
            case UNSERVABLE -> "untranslatable";
            case DEADLINE -> "deadline";
            case FAILED -> failure.outcome().name();
        };
    }

    private static String statusOf(StepFailure failure) {
        if (failure.skipped()) {
            return null;
        }
        if (failure.cause() instanceof AnsweredFailure answered && answered.refusalNote() != null) {
            return answered.refusalNote(); // the configuration's refusal: a model, the gateway's credentials
        }
        return failure.cause() instanceof HttpStatusException http ? "HTTP " + http.status() : null;
    }

    private static String ascii(CharSequence text) {
        StringBuilder clean = new StringBuilder(text.length());
        text.chars().forEach(c -> clean.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return clean.toString();
    }

    private static String bounded(String value) {
        return value.length() <= MAX_LENGTH ? value : value.substring(0, MAX_LENGTH - 3) + "...";
    }
}
