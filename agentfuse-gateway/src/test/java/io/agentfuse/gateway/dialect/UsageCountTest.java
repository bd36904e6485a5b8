package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.anthropic.AnthropicStreamDecoder;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A provider's count of tokens is read the same in every dialect ({@link Usage#count}): one past a
 * {@code long}'s range — however the JSON writes it, {@code 1e30} or {@code 99999999999999999999} —
 * is the largest count, never the low bits of the number (a count wrapped to a small or negative
 * one), and one with a fraction is its whole part.
 */
class UsageCountTest {

    private static final long MOST = Long.MAX_VALUE;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1e30", "99999999999999999999", "18446744073709551616", "18446744073709551615",
            "9223372036854775808"})
    void aCountPastALongsRangeIsTheLargestCountInEveryDialect(String count) {
        assertThat(Dialects.OPENAI.usageOf(usage("prompt_tokens", count, "completion_tokens"))).isEqualTo(Usage.of(MOST, 2));
        assertThat(Dialects.ANTHROPIC.usageOf(usage("input_tokens", count, "output_tokens"))).isEqualTo(Usage.of(MOST, 2));
        assertThat(Dialects.RESPONSES.usageOf(usage("input_tokens", count, "output_tokens"))).isEqualTo(Usage.of(MOST, 2));
        assertThat(Dialects.BEDROCK.usageOf(usage("inputTokens", count, "outputTokens"))).isEqualTo(Usage.of(MOST, 2));
        assertThat(Dialects.GEMINI.usageOf(new JsonObject().put("usageMetadata",
                new JsonObject("{\"promptTokenCount\":" + count + ",\"candidatesTokenCount\":2}")))).isEqualTo(Usage.of(MOST, 2));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1e30", "99999999999999999999", "18446744073709551615"})
    void aStreamedOutputCountPastALongsRangeIsTheLargestCount(String count) {
        AnthropicStreamDecoder decoder = new AnthropicStreamDecoder();

        decoder.decode(SseEvent.named("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"m\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],"
                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}"));
        decoder.decode(SseEvent.named("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":" + count + "}}"));

        assertThat(decoder.usage()).isEqualTo(Usage.of(3, MOST));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-1e30", "-99999999999999999999"})
    void aCountFarBelowZeroIsStillANegativeCountAndTheAnswerMalformed(String count) {
        String answer = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":" + count + ",\"completion_tokens\":2}}";

        assertThatThrownBy(() -> Dialects.OPENAI.usageOf(Dialects.OPENAI.checkAnswer(Buffer.buffer(answer))))
                .isInstanceOf(MalformedAnswerException.class).hasMessageContaining("never negative");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2.5", "2.99"})
    void aCountWithAFractionIsItsWholePart(String count) {
        assertThat(Usage.count(new JsonObject("{\"n\":" + count + "}").getNumber("n"))).isEqualTo(2);
        assertThat(Dialects.ANTHROPIC.usageOf(usage("input_tokens", count, "output_tokens"))).isEqualTo(Usage.of(2, 2));
    }

    /** A body whose {@code usage} holds {@code input} written as {@code count} and {@code output} as 2. */
    private static JsonObject usage(String input, String count, String output) {
        return new JsonObject("{\"usage\":{\"" + input + "\":" + count + ",\"" + output + "\":2}}");
    }
}
