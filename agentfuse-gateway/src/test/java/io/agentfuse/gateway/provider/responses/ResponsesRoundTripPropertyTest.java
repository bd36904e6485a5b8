package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of the Responses encoders and decoders over generated answers: what is written reads back the same. */
class ResponsesRoundTripPropertyTest {

    @Property(tries = 300)
    void aStreamReadsBackAsTheEventsThatWroteIt(@ForAll("streams") List<StreamEvent> stream) {
        ResponsesStreamEncoder encoder = new ResponsesStreamEncoder(null, 1);
        ResponsesStreamDecoder decoder = new ResponsesStreamDecoder();
        List<SseEvent> wire = new ArrayList<>();
        stream.forEach(event -> wire.addAll(encoder.encode(event)));

        List<StreamEvent> decoded = new ArrayList<>();
        wire.forEach(event -> decoded.addAll(decoder.decode(event)));
        decoded.addAll(decoder.end());

        assertThat(decoded).containsExactlyElementsOf(stream);
        for (int i = 0; i < wire.size(); i++) {
            assertThat(new JsonObject(wire.get(i).data()).getLong("sequence_number")).isEqualTo(i);
        }
    }

    @Property(tries = 300)
    void aCompleteAnswerReadsBackAsTheAnswerThatWroteIt(@ForAll("answers") ChatResponse answer) {
        ChatResponse again = ResponsesResponseCodec.read(ResponsesResponseCodec.write(answer, null).encode());

        assertThat(again.content()).isEqualTo(answer.content());
        assertThat(again.finishReason()).isEqualTo(answer.finishReason());
        assertThat(again.usage()).isEqualTo(answer.usage());
        assertThat(again.created()).isEqualTo(answer.created());
    }

    private static Arbitrary<String> piece() {
        return Arbitraries.strings().withCharRange(' ', '~').withChars('é', '\n', '"', '\\', '€').ofMinLength(1).ofMaxLength(12);
    }

    private static Arbitrary<Usage> usage() {
        return Combinators.combine(Arbitraries.longs().between(0, 100_000), Arbitraries.longs().between(0, 10_000))
                .as(Usage::of);
    }

    /** One output item: a list of text pieces (a text block) or, when {@code tool} is set, a call's argument pieces. */
    private record Block(boolean tool, String name, List<String> pieces) {
    }

    @Provide
    Arbitrary<List<StreamEvent>> streams() {
        Arbitrary<Block> text = piece().list().ofMinSize(1).ofMaxSize(3).map(pieces -> new Block(false, null, pieces));
        Arbitrary<Block> call = Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8),
                piece().list().ofMaxSize(3)).as((name, pieces) -> new Block(true, name, pieces));
        Arbitrary<List<Block>> blocks = Arbitraries.oneOf(text, call).list().ofMaxSize(5);
        return Combinators.combine(blocks, usage(), Arbitraries.integers().between(0, 2)).as((items, tokens, pick) -> {
            List<StreamEvent> events = new ArrayList<>();
            events.add(new StreamEvent.Start("resp_gen", "model", Usage.ZERO));
            int calls = 0;
            for (Block block : items) {
                if (block.tool()) {
                    int index = calls++;
                    events.add(new StreamEvent.ToolCallStart(index, "call_" + index, block.name()));
                    block.pieces().forEach(p -> events.add(new StreamEvent.ToolCallDelta(index, p)));
                } else {
                    block.pieces().forEach(p -> events.add(new StreamEvent.TextDelta(p)));
                }
            }
            List<FinishReason> reasons = calls > 0 ? List.of(FinishReason.TOOL_CALLS, FinishReason.LENGTH)
                    : List.of(FinishReason.STOP, FinishReason.LENGTH, FinishReason.CONTENT_FILTER);
            events.add(new StreamEvent.Finish(reasons.get(pick % reasons.size()), null, tokens));
            return events;
        });
    }

    @Provide
    Arbitrary<ChatResponse> answers() {
        Arbitrary<List<ContentPart>> texts = piece().map(t -> (ContentPart) new ContentPart.Text(t)).list().ofMaxSize(3);
        Arbitrary<List<ContentPart>> calls = Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8),
                        Arbitraries.strings().numeric().ofMaxLength(4))
                .as((name, n) -> (ContentPart) new ContentPart.ToolCall("call_" + name, name, "{\"n\":\"" + n + "\"}"))
                .list().ofMaxSize(3);
        return Combinators.combine(texts, calls, usage(), Arbitraries.longs().between(0, 4_000_000_000L),
                Arbitraries.integers().between(0, 2)).as((text, toolCalls, tokens, created, pick) -> {
                    List<ContentPart> content = new ArrayList<>(text);
                    content.addAll(toolCalls);
                    List<FinishReason> reasons = toolCalls.isEmpty()
                            ? List.of(FinishReason.STOP, FinishReason.LENGTH, FinishReason.CONTENT_FILTER)
                            : List.of(FinishReason.TOOL_CALLS, FinishReason.LENGTH);
                    return new ChatResponse("msg_gen", "model", created, content, reasons.get(pick % reasons.size()),
                            null, tokens);
                });
    }
}
