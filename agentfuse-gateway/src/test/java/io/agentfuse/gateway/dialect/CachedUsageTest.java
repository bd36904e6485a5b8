package io.agentfuse.gateway.dialect;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every dialect's usage reader tells, within the input tokens, those its provider read from or wrote to
 * its prompt cache, from answers shaped as the providers send them (the usage objects of their API
 * references and prompt-caching guides), whole and streamed.
 */
class CachedUsageTest {

    /** Anthropic's: {@code input_tokens} is what the cache did not serve; 51 written for 5 minutes, 2 000 for an hour. */
    private static final String ANTHROPIC_USAGE = "{\"input_tokens\":12,\"cache_creation_input_tokens\":2051,"
            + "\"cache_read_input_tokens\":95310,\"cache_creation\":{\"ephemeral_5m_input_tokens\":51,"
            + "\"ephemeral_1h_input_tokens\":2000},\"output_tokens\":393,\"service_tier\":\"standard\"}";

    private static final Usage ANTHROPIC_TOLD = Usage.of(97_373, 393, new CachedTokens(95_310, 51, 2_000));

    @Test
    void anAnthropicAnswerTellsItsCacheReadsAndWritesBesideItsInput() {
        String answer = "{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
                + "\"usage\":" + ANTHROPIC_USAGE + "}";

        assertThat(Dialects.ANTHROPIC.usageOf(Dialects.ANTHROPIC.checkAnswer(Buffer.buffer(answer)))).isEqualTo(ANTHROPIC_TOLD);
    }

    @Test
    void anAnthropicStreamTellsItsCacheInMessageStartAndKeepsItWhenMessageDeltaRepeatsTheCounts() {
        StreamDecoder decoder = Dialects.ANTHROPIC.streamDecoder();
        JsonObject start = new JsonObject(ANTHROPIC_USAGE).put("output_tokens", 1);

        decoder.decode(SseEvent.named("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],"
                + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":" + start.encode() + "}}"));
        decoder.decode(SseEvent.named("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":2051,"
                + "\"cache_read_input_tokens\":95310,\"output_tokens\":393}}"));
        decoder.decode(SseEvent.named("message_stop", "{\"type\":\"message_stop\"}"));

        assertThat(decoder.usage()).isEqualTo(ANTHROPIC_TOLD);
    }

    @Test
    void anAnthropicUsageWrittenForACallerTellsItsCacheAsAnthropicDoes() {
        JsonObject written = io.agentfuse.gateway.provider.anthropic.AnthropicResponseCodec.usageJson(ANTHROPIC_TOLD);

        assertThat(written.getLong("input_tokens")).isEqualTo(12);
        assertThat(written.getLong("cache_read_input_tokens")).isEqualTo(95_310);
        assertThat(written.getLong("cache_creation_input_tokens")).isEqualTo(2_051);
        assertThat(written.getJsonObject("cache_creation").getLong("ephemeral_1h_input_tokens")).isEqualTo(2_000);
    }

    @Test
    void anOpenAiChatAnswerTellsItsCachedPromptTokensWithinThePrompt() {
        // OpenAI's prompt-caching guide: 1 920 of a 2 006-token prompt read from the cache.
        String answer = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-4o-2024-08-06\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\",\"refusal\":null},"
                + "\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":2006,\"completion_tokens\":300,"
                + "\"total_tokens\":2306,\"prompt_tokens_details\":{\"cached_tokens\":1920,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,"
                + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}},\"system_fingerprint\":\"fp_1\"}";
        Usage told = Usage.of(2_006, 300, CachedTokens.ofReads(1_920));

        assertThat(Dialects.OPENAI.usageIfWellFormed(Buffer.buffer(answer))).as("the scan").isEqualTo(told);
        assertThat(Dialects.OPENAI.usageOf(Dialects.OPENAI.checkAnswer(Buffer.buffer(answer)))).as("the tree").isEqualTo(told);
        String moreCachedThanRead = answer.replace("\"cached_tokens\":1920", "\"cached_tokens\":3000");
        assertThat(Dialects.OPENAI.usageIfWellFormed(Buffer.buffer(moreCachedThanRead)))
                .as("cached tokens that do not fit in the prompt are not told apart").isEqualTo(Usage.of(2_006, 300));
    }

    @Test
    void aResponsesAnswerAndItsStreamTellTheirCachedInputTokens() {
        String usage = "{\"input_tokens\":100000,\"input_tokens_details\":{\"cached_tokens\":95000},"
                + "\"output_tokens\":1000,\"output_tokens_details\":{\"reasoning_tokens\":640},\"total_tokens\":101000}";
        String response = "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"status\":\"completed\","
                + "\"model\":\"gpt-5-2025-08-07\",\"output\":[{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\","
                + "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hi\",\"annotations\":[]}]}],"
                + "\"usage\":" + usage + "}";
        Usage told = Usage.of(100_000, 1_000, CachedTokens.ofReads(95_000));
        StreamDecoder decoder = Dialects.RESPONSES.streamDecoder();

        decoder.decode(SseEvent.named("response.completed", "{\"type\":\"response.completed\",\"sequence_number\":1,"
                + "\"response\":" + response + "}"));

        assertThat(Dialects.RESPONSES.usageOf(Dialects.RESPONSES.checkAnswer(Buffer.buffer(response)))).isEqualTo(told);
        assertThat(decoder.usage()).isEqualTo(told);
    }

    @Test
    void aGeminiAnswerAndItsStreamTellTheirCachedContentWithinThePrompt() {
        String chunk = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hi\"}]},"
                + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":11500,"
                + "\"candidatesTokenCount\":1000,\"totalTokenCount\":22500,\"cachedContentTokenCount\":10000,"
                + "\"thoughtsTokenCount\":10000},\"modelVersion\":\"gemini-2.5-pro\",\"responseId\":\"r1\"}";
        Usage told = Usage.of(11_500, 11_000, CachedTokens.ofReads(10_000));
        StreamDecoder decoder = Dialects.GEMINI.streamDecoder();

        decoder.decode(SseEvent.data(chunk));

        assertThat(Dialects.GEMINI.usageOf(Dialects.GEMINI.checkAnswer(Buffer.buffer(chunk)))).isEqualTo(told);
        assertThat(decoder.usage()).isEqualTo(told);
    }

    @Test
    void aBedrockAnswerAndItsStreamTellTheirCacheReadsAndWritesBesideTheirInput() {
        String usage = "{\"inputTokens\":3000,\"outputTokens\":1000,\"totalTokens\":101000,"
                + "\"cacheReadInputTokens\":95000,\"cacheWriteInputTokens\":2000}";
        String answer = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"Hi\"}]}},"
                + "\"stopReason\":\"end_turn\",\"usage\":" + usage + ",\"metrics\":{\"latencyMs\":900}}";
        Usage told = Usage.of(100_000, 1_000, new CachedTokens(95_000, 2_000, 0));
        StreamDecoder decoder = Dialects.BEDROCK.streamDecoder();

        decoder.decode(SseEvent.named("messageStart", "{\"role\":\"assistant\"}"));
        decoder.decode(SseEvent.named("messageStop", "{\"stopReason\":\"end_turn\"}"));
        decoder.decode(SseEvent.named("metadata", "{\"usage\":" + usage + ",\"metrics\":{\"latencyMs\":900}}"));

        assertThat(Dialects.BEDROCK.usageOf(Dialects.BEDROCK.checkAnswer(Buffer.buffer(answer)))).isEqualTo(told);
        assertThat(decoder.usage()).isEqualTo(told);
    }
}
