package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.DurationFormat;
import io.agentfuse.core.internal.Checks;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The caller's {@code x-agentfuse-deadline} (docs/design.md §13): how long the caller allows the
 * whole request, written as the configuration writes durations ({@code 30s}, {@code 1500ms},
 * {@code 2m}; a bare number is seconds). It can only shorten the model's {@code deadline}, never
 * lengthen it ({@link io.agentfuse.config.AgentfuseRuntime#deadline}). A value that is not a
 * positive duration is refused with a 400 {@code invalid_request} naming the header, rather than
 * ignored: a caller who sets a deadline relies on it. A longer one than any deadline can be (100
 * years) is read as that longest: it shortens nothing. The refusal quotes the start of the value only:
 * a header of kilobytes is not sent back whole. Stateless and thread-safe.
 */
final class DeadlineHeader {

    /** The request header. */
    static final String NAME = "x-agentfuse-deadline";

    private DeadlineHeader() {
    }

    /**
     * The limit {@code value} sets, or {@code null} when the header is absent.
     *
     * @throws GatewayException ({@code invalid_request}) when {@code value} is not a positive duration
     */
    static Duration parse(String value) {
        if (value == null) {
            return null;
        }
        Optional<Duration> limit = DurationFormat.parse(value, ChronoUnit.SECONDS);
        if (limit.isEmpty() || limit.get().isZero() || limit.get().toMillis() < 1) {
            throw new GatewayException(GatewayError.INVALID_REQUEST, "header " + NAME
                    + " must be a positive duration like 30s or 1500ms (a bare number is seconds), but was "
                    + AnswerShape.quoted(value));
        }
        return limit.get().compareTo(Checks.MAX_DURATION) > 0 ? Checks.MAX_DURATION : limit.get();
    }
}
