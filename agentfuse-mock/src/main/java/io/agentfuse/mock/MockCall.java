package io.agentfuse.mock;

import java.util.Objects;

/**
 * What a provider request asks of the {@link MockProvider}, read by the route that received it: the
 * model (from the body or, for Bedrock, Gemini and Vertex, from the path), whether to stream (a
 * body's {@code "stream": true} or a streaming path) and whether an OpenAI caller asked for usage
 * in the stream.
 *
 * <p>Immutable.
 *
 * @param model        the model the request names
 * @param stream       whether the answer is streamed
 * @param includeUsage whether the caller asked for usage in the stream (OpenAI {@code stream_options})
 */
record MockCall(String model, boolean stream, boolean includeUsage) {

    MockCall {
        Objects.requireNonNull(model, "model");
    }
}
