package io.agentfuse.gateway.provider.openai;

import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.ScanPrefix;
import io.agentfuse.gateway.sse.SseEvent;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OpenAiChunkScanTest {

    private static final String FIRST = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"system_fingerprint\":\"fp_1\",\"usage\":null,\"choices\":[{\"index\":0,"
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}],"
            + "\"obfuscation\":\"x1\"}";
    private static final String TEXT = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"line\\n\\\"quoted\\\" \\u00e9 ü 😀\"},"
            + "\"logprobs\":null,\"finish_reason\":null}]}";
    private static final String LAST = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"length\"}]}";
    private static final String USAGE = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":19,\"completion_tokens\":2,"
            + "\"total_tokens\":21,\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},"
            + "\"completion_tokens_details\":{\"reasoning_tokens\":0}},\"obfuscation\":\"x2\"}";

    @Test
    void aUsageChunkTellsItsCachedPromptTokensToTheScanAsToTheDecoder() {
        String cached = USAGE.replace("\"cached_tokens\":0", "\"cached_tokens\":15");
        Usage told = Usage.of(19, 2, CachedTokens.ofReads(15));
        OpenAiStreamDecoder decoder = new OpenAiStreamDecoder();

        decoder.decode(SseEvent.data(cached));

        assertThat(read(cached)).isEqualTo(new OpenAiChunkScan.Chunk(null, told, true, false));
        assertThat(decoder.usage()).isEqualTo(told);
    }

    @Test
    void theChunksOfAPlainStreamAreScannedAndTheFinishReasonOfChoiceZeroKept() {
        assertThat(read(FIRST)).isEqualTo(OpenAiChunkScan.Chunk.PLAIN);
        assertThat(read(TEXT)).isEqualTo(OpenAiChunkScan.Chunk.TEXT);
        assertThat(read(LAST)).isEqualTo(new OpenAiChunkScan.Chunk("length", null, false, false));
        assertThat(read("{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"other\"},\"finish_reason\":\"stop\"},"
                + "{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}"))
                .as("choice 1's text and finish are not choice 0's")
                .isEqualTo(new OpenAiChunkScan.Chunk("tool_calls", null, false, false));
        assertThat(read("{\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"refusal\":\"no\"}}]}"))
                .isEqualTo(OpenAiChunkScan.Chunk.TEXT);
        assertThat(read(USAGE)).isEqualTo(new OpenAiChunkScan.Chunk(null, Usage.of(19, 2), true, false));

        OpenAiStreamDecoder decoder = new OpenAiStreamDecoder();
        for (String chunk : List.of(FIRST, TEXT, LAST)) {
            assertThat(decoder.observe(SseEvent.data(chunk))).isEmpty();
            assertThat(decoder.relaysLastEvent(false)).isTrue();
        }
        assertThat(decoder.observe(SseEvent.data(USAGE))).isEmpty();
        assertThat(decoder.relaysLastEvent(false)).as("the usage chunk the caller did not ask for").isFalse();
        assertThat(decoder.relaysLastEvent(true)).isTrue();
        assertThat(decoder.observe(SseEvent.DONE)).containsExactly(new StreamEvent.Finish(FinishReason.LENGTH, null, Usage.of(19, 2)));
    }

    @Test
    void aUsageAlongsideChoicesIsReadAndTheChunkRelayed() {
        String chunk = "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"completion_tokens\":4,\"total_tokens\":4}}";
        OpenAiStreamDecoder decoder = new OpenAiStreamDecoder();

        assertThat(read(chunk)).as("scanned, not left to the tree").isEqualTo(new OpenAiChunkScan.Chunk("stop", Usage.of(0, 4), false, false));
        decoder.observe(SseEvent.data(chunk));

        assertThat(decoder.usage()).as("an absent count is 0, as the decoder reads it").isEqualTo(Usage.of(0, 4));
        assertThat(decoder.relaysLastEvent(false)).isTrue();
    }

    @Test
    void whatTheDecoderMustReadOrExplainIsLeftToIt() {
        List<String> unclear = List.of(
                "", "[]", "{", "not json", "{} {}", "{\"choices\":{}}",
                "{\"error\":{\"type\":\"server_error\",\"message\":\"boom\"}}",
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":5.0,\"completion_tokens\":7}}",
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"prompt_tokens\":5}}",
                "{\"choices\":[],\"usage\":[]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}",
                "{\"choices\":[{\"index\":\"0\",\"delta\":{}}]}",
                "{\"choices\":[{\"index\":0.0,\"delta\":{}}]}",
                "{\"choices\":[{\"delta\":{},\"finish_reason\":5}]}",
                "{\"choices\":[{\"delta\":{},\"finish_reason\":\"st\\u006fp\"}]}",
                "{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\",\"finish_reason\":null}]}",
                "{\"choices\":[null]}",
                "{\"id\":5,\"choices\":[]}",
                "{\"choices\":[],\"choices\":[]}",
                "{\"ch\\u006fices\":[]}");

        for (String chunk : unclear) {
            assertThat(read(chunk)).as(chunk).isNull();
        }
    }

    /**
     * The one promise the shortcut makes: observing a chunk leaves the decoder where decoding it
     * does — the same errors and finishes, usage, end of stream, and what {@link OpenAiStreamDecoder#end} owes.
     */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void observingAChunkReportsWhatDecodingItReports(@ForAll("chunks") byte[] bytes) {
        // As the SSE parser hands it over: decoded from UTF-8, a malformed sequence replaced.
        String data = new String(bytes, StandardCharsets.UTF_8);
        Statistics.collect(read(data) != null ? "scanned" : "left to the decoder");
        Statistics.coverage(coverage -> {
            coverage.check("scanned").percentage(share -> share > 5);
            coverage.check("left to the decoder").percentage(share -> share > 5);
        });
        OpenAiStreamDecoder decoding = new OpenAiStreamDecoder();
        OpenAiStreamDecoder observing = new OpenAiStreamDecoder();

        List<StreamEvent> decoded = decoding.decode(SseEvent.data(data));
        List<StreamEvent> observed = observing.observe(SseEvent.data(data));

        assertThat(errorsAndFinishes(observed)).as(data).isEqualTo(errorsAndFinishes(decoded));
        assertThat(observing.usage()).as(data).isEqualTo(decoding.usage());
        assertThat(observing.finished()).as(data).isEqualTo(decoding.finished());
        assertThat(observing.relaysLastEvent(false)).as(data).isEqualTo(decoding.relaysLastEvent(false));
        assertThat(observing.end()).as(data).isEqualTo(decoding.end());
    }

    /**
     * Where the answer begins (docs/design.md §13), told from the scan: a chunk the decoder says
     * begins or not without decoding it is one that decodes without an error, and begins the answer
     * (carries text or a tool call) exactly when the decoder said so.
     */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void theOpeningToldFromTheScanIsWhatDecodingTells(@ForAll("chunks") byte[] bytes) {
        String data = new String(bytes, StandardCharsets.UTF_8);
        StreamDecoder.Opening opening = new OpenAiStreamDecoder().opening(SseEvent.data(data));
        Statistics.collect(opening);
        Statistics.coverage(coverage -> {
            coverage.check(StreamDecoder.Opening.BEGUN).percentage(share -> share > 2);
            coverage.check(StreamDecoder.Opening.PREAMBLE).percentage(share -> share > 2);
        });
        if (opening == StreamDecoder.Opening.UNKNOWN) {
            return;
        }
        List<StreamEvent> decoded = new OpenAiStreamDecoder().decode(SseEvent.data(data));

        assertThat(decoded).as(data).noneMatch(StreamEvent.Error.class::isInstance);
        assertThat(decoded.stream().anyMatch(event -> !(event instanceof StreamEvent.Start)))
                .as(data).isEqualTo(opening == StreamDecoder.Opening.BEGUN);
    }

    private static List<StreamEvent> errorsAndFinishes(List<StreamEvent> events) {
        return events.stream().filter(event -> event instanceof StreamEvent.Error || event instanceof StreamEvent.Finish).toList();
    }

    /**
     * What a stream's chunks begin with is read once ({@link ScanPrefix}): a stream read with
     * one prefix says of each chunk what reading the chunk alone says, whether its beginning is the
     * one remembered or differs from it by a byte.
     */
    @Property(tries = 1500, edgeCases = EdgeCasesMode.NONE)
    void aStreamReadWithOnePrefixSaysOfEachChunkWhatReadingItAloneSays(@ForAll("streams") List<byte[]> stream) {
        ScanPrefix leading = new ScanPrefix();
        for (byte[] chunk : stream) {
            Statistics.collect(leading.isPrefixOf(chunk) ? "read on from the prefix" : "read whole");

            assertThat(OpenAiChunkScan.read(chunk, leading)).as(new String(chunk, StandardCharsets.UTF_8))
                    .isEqualTo(OpenAiChunkScan.read(chunk, new ScanPrefix()));
        }
        Statistics.coverage(coverage -> coverage.check("read on from the prefix").percentage(share -> share > 20));
    }

    /**
     * Chunks generated from the field list the decoder and the scan both read
     * ({@link OpenAiShapes#CHUNK}): mostly well formed, each field now and then absent, null, given
     * twice, of another kind, named with an escape, or cut short, and now and then with a stray byte
     * put in anywhere.
     */
    @Provide
    Arbitrary<byte[]> chunks() {
        return JsonFragments.damaged(JsonFragments.of(OpenAiShapes.CHUNK));
    }

    /**
     * Streams of such chunks, most beginning the same way (an id, a model and the like, or members
     * whose readers keep what they read), so that the prefix is remembered and read on from.
     */
    @Provide
    Arbitrary<List<byte[]>> streams() {
        Arbitrary<String> beginning = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.just("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                        + "\"model\":\"gpt-4o-mini\",\"system_fingerprint\":\"fp_1\",")),
                Tuple.of(2, Arbitraries.of(" { \"id\" : \"chatcmpl-1\" , \"error\":null,", "{\"usage\":null,\"id\":\"c\",",
                        "{\"choices\":[],\"model\":\"m\",", "{\"id\":\"c\",\"id\":\"c\",", "{\"model\":5,", "{")));
        Arbitrary<String> chunk = Combinators.combine(beginning, JsonFragments.of(OpenAiShapes.CHUNK))
                .as((start, members) -> start + members.substring(1));
        return JsonFragments.damaged(chunk).list().ofMinSize(2).ofMaxSize(6);
    }

    private static OpenAiChunkScan.Chunk read(String data) {
        return OpenAiChunkScan.read(data.getBytes(StandardCharsets.UTF_8), new ScanPrefix());
    }
}
