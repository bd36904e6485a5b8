package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;
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

import static io.agentfuse.gateway.provider.openai.JsonFragments.anyValue;
import static io.agentfuse.gateway.provider.openai.JsonFragments.array;
import static io.agentfuse.gateway.provider.openai.JsonFragments.field;
import static io.agentfuse.gateway.provider.openai.JsonFragments.mostly;
import static io.agentfuse.gateway.provider.openai.JsonFragments.object;
import static io.agentfuse.gateway.provider.openai.JsonFragments.rarely;
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
    void theChunksOfAPlainStreamAreScannedAndTheFinishReasonOfChoiceZeroKept() {
        assertThat(read(FIRST)).isEqualTo(OpenAiChunkScan.Chunk.PLAIN);
        assertThat(read(TEXT)).isEqualTo(OpenAiChunkScan.Chunk.PLAIN);
        assertThat(read(LAST)).isEqualTo(new OpenAiChunkScan.Chunk("length", null, false));
        assertThat(read("{\"choices\":[{\"index\":1,\"delta\":{},\"finish_reason\":\"stop\"},"
                + "{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}")).isEqualTo(new OpenAiChunkScan.Chunk("tool_calls", null, false));
        assertThat(read(USAGE)).isEqualTo(new OpenAiChunkScan.Chunk(null, Usage.of(19, 2), true));

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

        assertThat(read(chunk)).as("scanned, not left to the tree").isEqualTo(new OpenAiChunkScan.Chunk("stop", Usage.of(0, 4), false));
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
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":null}}",
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

    private static List<StreamEvent> errorsAndFinishes(List<StreamEvent> events) {
        return events.stream().filter(event -> event instanceof StreamEvent.Error || event instanceof StreamEvent.Finish).toList();
    }

    /**
     * What a stream's chunks begin with is read once ({@link JsonScan.Prefix}): a stream read with
     * one prefix says of each chunk what reading the chunk alone says, whether its beginning is the
     * one remembered or differs from it by a byte.
     */
    @Property(tries = 1500, edgeCases = EdgeCasesMode.NONE)
    void aStreamReadWithOnePrefixSaysOfEachChunkWhatReadingItAloneSays(@ForAll("streams") List<byte[]> stream) {
        JsonScan.Prefix leading = new JsonScan.Prefix();
        for (byte[] chunk : stream) {
            Statistics.collect(leading.isPrefixOf(chunk) ? "read on from the prefix" : "read whole");

            assertThat(OpenAiChunkScan.read(chunk, leading)).as(new String(chunk, StandardCharsets.UTF_8))
                    .isEqualTo(OpenAiChunkScan.read(chunk, new JsonScan.Prefix()));
        }
        Statistics.coverage(coverage -> coverage.check("read on from the prefix").percentage(share -> share > 20));
    }

    /**
     * Chunks that are mostly well formed, each part now and then absent, given twice, of another
     * kind, named with an escape, or cut short, and now and then with a stray byte put in anywhere.
     */
    @Provide
    Arbitrary<byte[]> chunks() {
        Arbitrary<String> chunk = object(field("id", stringOrNull()), field("object", anyValue()), field("model", stringOrNull()),
                choices(), field("usage", usage()), rarely(field("error", error())));
        return JsonFragments.damaged(chunk);
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
        Arbitrary<String> rest = object(choices(), field("usage", usage()), rarely(field("id", stringOrNull())),
                rarely(field("error", error())));
        Arbitrary<String> chunk = Combinators.combine(beginning, rest).as((start, members) -> start + members.substring(1));
        return JsonFragments.damaged(chunk).list().ofMinSize(2).ofMaxSize(6);
    }

    private static Arbitrary<String> stringOrNull() {
        return mostly(Arbitraries.of("null", "\"text\"", "\"\\u00e9\\n\"", "\"é 中文\""));
    }

    private static Arbitrary<String> choices() {
        Arbitrary<String> toolCall = mostly(object(field("index", Arbitraries.of("0", "1")), field("id", stringOrNull()),
                field("function", mostly(object(field("name", stringOrNull()), field("arguments", stringOrNull()))))));
        Arbitrary<String> delta = object(field("role", stringOrNull()), field("content", stringOrNull()),
                field("refusal", stringOrNull()), rarely(field("tool_calls", mostly(array(toolCall)))));
        Arbitrary<String> finishReason = mostly(Arbitraries.of("null", "\"stop\"", "\"length\"", "\"tool_calls\"",
                "\"content_filter\"", "\"new_reason\""));
        Arbitrary<String> choice = mostly(object(field("index", mostly(Arbitraries.of("0", "1", "4294967296"))),
                field("delta", mostly(delta)), field("logprobs", anyValue()), field("finish_reason", finishReason)));
        return field("choices", mostly(array(choice)));
    }

    private static Arbitrary<String> usage() {
        Arbitrary<String> count = mostly(Arbitraries.of("0", "7", "12345"));
        return mostly(Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("null")),
                Tuple.of(1, object(field("prompt_tokens", count), field("completion_tokens", count)))));
    }

    private static Arbitrary<String> error() {
        return mostly(object(field("type", stringOrNull()), field("message", stringOrNull())));
    }

    private static OpenAiChunkScan.Chunk read(String data) {
        return OpenAiChunkScan.read(data.getBytes(StandardCharsets.UTF_8), new JsonScan.Prefix());
    }
}
