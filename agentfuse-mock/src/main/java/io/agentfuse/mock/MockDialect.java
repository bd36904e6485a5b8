package io.agentfuse.mock;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * How one provider dialect writes the answers the {@link MockProvider} generates. Each
 * implementation writes its provider's wire format on its own, without the gateway's dialect
 * code, so that tests of that code against the mock are not circular.
 *
 * <p>Implementations are stateless apart from an id counter, and thread-safe.
 */
interface MockDialect {

    /** A fresh message id in the provider's style. */
    String nextId();

    /** A complete non-streaming success for {@code step}. */
    JsonObject success(MockStep step, String model);

    /** An error body for {@code status}, in the provider's own error shape. */
    JsonObject error(int status);

    /** The events sent together with the first streamed piece. */
    List<MockEvent> opening(MockStep step, String model, StreamIds ids);

    /** The events carrying one streamed piece of text. */
    List<MockEvent> text(String piece, StreamIds ids);

    /** The events carrying the step's tool calls, after the text. */
    List<MockEvent> toolCalls(MockStep step, StreamIds ids);

    /** The events that end the stream (finish reason, usage, end marker). */
    List<MockEvent> closing(MockStep step, StreamIds ids);

    /**
     * What stays constant over one streamed answer.
     *
     * @param id           the message id
     * @param model        the model name echoed back
     * @param created      creation time, epoch seconds
     * @param includeUsage whether the caller asked for usage in the stream (OpenAI {@code stream_options})
     */
    record StreamIds(String id, String model, long created, boolean includeUsage) {
    }
}
