package io.agentfuse.gateway.provider.azure;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Azure OpenAI: OpenAI's wire format with Azure's key header, api-version, prompt-filter chunk and errors. */
class AzureDialectTest {

    private static final String FILTER_CHUNK = "{\"choices\":[],\"created\":0,\"id\":\"\",\"model\":\"\",\"object\":\"\","
            + "\"prompt_filter_results\":[{\"prompt_index\":0,\"content_filter_results\":{}}]}";
    private static final String FIRST_CHUNK = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4.1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}";

    @Test
    void theKeyGoesInApiKeyAnEntraTokenInAuthorizationAndTheApiVersionInTheQuery() {
        assertThat(AzureDialect.CHAT.authHeaders("k")).isEqualTo(Map.of("api-key", "k"));
        assertThat(AzureDialect.CHAT.entraAuthHeaders("t")).isEqualTo(Map.of("authorization", "Bearer t"));
        assertThat(AzureDialect.CHAT.upstreamPath("2024-10-21")).isEqualTo("/chat/completions?api-version=2024-10-21");
        assertThat(AzureDialect.CHAT.upstreamPath(null)).isEqualTo("/chat/completions");
        assertThat(AzureDialect.RESPONSES.upstreamPath("preview")).isEqualTo("/responses?api-version=preview");
        assertThat(AzureDialect.CHAT.wire()).isSameAs(Dialects.OPENAI);
        assertThat(AzureDialect.CHAT.providerType()).isEqualTo("azure");
    }

    @Test
    void thePromptFilterChunkIsSkippedSoTheAnswerStartsWithTheProvidersIdAndIsNotRelayed() {
        StreamDecoder decoder = AzureDialect.CHAT.streamDecoder();

        List<StreamEvent> filter = decoder.decode(SseEvent.data(FILTER_CHUNK));
        boolean filterRelayed = decoder.relaysLastEvent(true);
        List<StreamEvent> first = decoder.decode(SseEvent.data(FIRST_CHUNK));

        assertThat(filter).isEmpty();
        assertThat(filterRelayed).isFalse();
        assertThat(first).containsExactly(new StreamEvent.Start("chatcmpl-1", "gpt-4.1", Usage.ZERO),
                new StreamEvent.TextDelta("Hi"));
        assertThat(decoder.relaysLastEvent(false)).isTrue();
    }

    @Test
    void azuresErrorsMapToOutcomes() {
        assertThat(AzureDialect.CHAT.errorOutcome(429, MultiMap.caseInsensitiveMultiMap(), "{\"error\":{\"code\":\"429\"}}")).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(AzureDialect.CHAT.errorOutcome(503, MultiMap.caseInsensitiveMultiMap(), "{\"error\":{\"code\":\"503\"}}")).isEqualTo(Outcome.OVERLOADED);
        String filtered = "{\"error\":{\"code\":\"content_filter\",\"status\":400}}";
        assertThat(AzureDialect.CHAT.errorOutcome(400, MultiMap.caseInsensitiveMultiMap(), filtered)).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(AzureErrors.isContentFilter(400, filtered)).isTrue();
        assertThat(AzureDialect.CHAT.errorOutcome(500, MultiMap.caseInsensitiveMultiMap(), "{}")).isEqualTo(Outcome.SERVER_ERROR);
    }
}
