package io.agentfuse.gateway.dialect;

import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.agentfuse.gateway.dialect.UpstreamEvents.anthropicToolStream;
import static io.agentfuse.gateway.dialect.UpstreamEvents.feed;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiTextStream;
import static io.agentfuse.gateway.dialect.UpstreamEvents.openAiUsage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream whose caller speaks the upstream's dialect: its events pass through as they came, but for
 * the usage chunk an OpenAI caller did not ask for, which is dropped however it is written.
 */
class StreamTranslatorWithinOneDialectTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void passesSameDialectEventsThroughUnchanged() {
        StreamTranslator translator = StreamTranslator.between(Dialects.ANTHROPIC, Dialects.ANTHROPIC, false, clock);

        assertThat(feed(translator, anthropicToolStream())).isEqualTo(anthropicToolStream());
        assertThat(translator.usage()).isEqualTo(Usage.of(25, 17));
    }

    @Test
    void dropsUsageChunkTheOpenAiCallerDidNotAskFor() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);

        List<SseEvent> out = feed(translator, openAiTextStream());

        assertThat(out).doesNotContain(openAiUsage(9, 2)).hasSize(openAiTextStream().size() - 1);
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }

    @Test
    void dropsAUsageChunkWrittenWithSpacesAndRelaysChunksWithoutEmptyArraysAsTheyCame() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);
        SseEvent spaced = SseEvent.data("{\"id\":\"c\",\"choices\": [ \n],\"usage\":{\"prompt_tokens\":9,"
                + "\"completion_tokens\":2,\"total_tokens\":11}}");
        List<SseEvent> stream = new ArrayList<>(openAiTextStream());
        stream.set(stream.indexOf(openAiUsage(9, 2)), spaced);

        List<SseEvent> out = feed(translator, stream);

        assertThat(out).doesNotContain(spaced).hasSize(stream.size() - 1);
        assertThat(out.get(0)).isSameAs(stream.get(0));
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }

    @Test
    void readFromAProviderTheUsageChunkIsDroppedAndAnEmptyArrayInsideTextIsRelayed() {
        StreamTranslator translator = StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock);
        String text = "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"an empty list: [ ]\"}}]}";
        String usage = "{\"id\":\"c\",\"choices\":[\t],\"usage\":{\"prompt_tokens\":9,"
                + "\"completion_tokens\":2,\"total_tokens\":11}}";
        List<SseEvent> read = new ArrayList<>(); // events read from bytes, as from a provider
        SseParser parser = new SseParser(read::add);
        parser.feed(Buffer.buffer("data: " + text + "\n\ndata: " + usage + "\n\ndata: [DONE]\n\n"));

        List<SseEvent> out = feed(translator, read);

        assertThat(out).containsExactly(read.get(0), read.get(2));
        assertThat(out.get(0).data()).isEqualTo(text);
        assertThat(translator.usage()).isEqualTo(Usage.of(9, 2));
    }
}
