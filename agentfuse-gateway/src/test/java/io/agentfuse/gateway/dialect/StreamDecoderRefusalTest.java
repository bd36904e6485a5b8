package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A value of an upstream event that the gateway's types refuse makes the event malformed; it never escapes as an exception. */
class StreamDecoderRefusalTest {

    @Test
    void anOpenAiUsageWithANegativeTokenCountIsAMalformedEvent() {
        StreamDecoder decoder = Dialects.OPENAI.streamDecoder();

        List<StreamEvent> events = decoder.decode(SseEvent.data(
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":-3,\"completion_tokens\":7}}"));

        assertThat(events).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED));
        assertThat(decoder.finished()).isTrue();
    }

    @Test
    void anAnthropicUsageWithANegativeTokenCountIsAMalformedEvent() {
        StreamDecoder decoder = Dialects.ANTHROPIC.streamDecoder();

        List<StreamEvent> events = decoder.decode(SseEvent.named("message_start",
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-haiku-4-5\","
                        + "\"usage\":{\"input_tokens\":-3,\"output_tokens\":1}}}"));

        assertThat(events).singleElement().isInstanceOfSatisfying(StreamEvent.Error.class,
                error -> assertThat(error.cause()).isEqualTo(StreamEvent.Error.Cause.MALFORMED));
        assertThat(decoder.finished()).isTrue();
    }
}
