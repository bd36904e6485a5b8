package io.agentfuse.bench;

import io.agentfuse.bench.gateway.FixedAnswerUpstream;
import io.agentfuse.core.Clock;
import io.agentfuse.gateway.dialect.ObservedEvent;
import io.agentfuse.gateway.dialect.StreamTranslator;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the gateway's own code does to a streamed answer between the provider's bytes and the
 * caller's, for the gateway bench's stream ({@link FixedAnswerUpstream#streamEvents()}: 20 OpenAI
 * chunks and {@code [DONE]}) relayed to an OpenAI caller — the user-space work that the load
 * bench's CPU per stream cannot resolve to a microsecond:
 * <ul>
 *   <li>{@code parseAndRelay}: the SSE parser over the provider's pieces, then each event through a
 *       same-dialect {@link StreamTranslator} (observed, held back or relayed) and its end, and the
 *       relayed events' wire form into the one buffer of their write;</li>
 *   <li>{@code checkThenRelay}: the same after the chain's check of the first event, whose decoder
 *       the translator goes on with ({@link ObservedEvent}), as a gateway request does;</li>
 *   <li>{@code checkApartThenRelay}: the check with a decoder of its own, the translator observing
 *       the first event again (the gateway before the hand-over).</li>
 * </ul>
 * Run: {@code java -jar agentfuse-bench/target/benchmarks.jar StreamRelayBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class StreamRelayBench {

    private final Clock clock = Clock.system();
    private List<Buffer> pieces;
    private final List<SseEvent> parsed = new ArrayList<>();
    private final List<SseEvent> relayed = new ArrayList<>();
    private SseParser parser;

    @Setup
    public void setUp() {
        pieces = FixedAnswerUpstream.streamEvents();
        parser = new SseParser(parsed::add);
    }

    @Benchmark
    public int parseAndRelay() {
        return relay(StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock), parse());
    }

    @Benchmark
    public int checkThenRelay() {
        List<SseEvent> events = parse();
        ObservedEvent first = ObservedEvent.of(Dialects.OPENAI, events.get(0));
        return relay(StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock, first), events);
    }

    @Benchmark
    public int checkApartThenRelay() {
        List<SseEvent> events = parse();
        if (!ObservedEvent.of(Dialects.OPENAI, events.get(0)).observed().isEmpty()) {
            throw new IllegalStateException("the first event said something");
        }
        return relay(StreamTranslator.between(Dialects.OPENAI, Dialects.OPENAI, false, clock), events);
    }

    private List<SseEvent> parse() {
        parsed.clear();
        for (Buffer piece : pieces) {
            parser.feed(piece);
        }
        return parsed;
    }

    // As StreamRelay does: the events relayed, then one buffer of their wire form for the write.
    private int relay(StreamTranslator translator, List<SseEvent> events) {
        relayed.clear();
        int bytes = 0;
        for (SseEvent event : events) {
            for (SseEvent out : translator.translate(event)) {
                relayed.add(out);
                bytes += out.wireLength();
            }
        }
        relayed.addAll(translator.end());
        if (relayed.size() != events.size() || translator.failure().isPresent()) {
            throw new IllegalStateException("relayed " + relayed.size() + " of " + events.size() + " events");
        }
        Buffer write = Buffer.buffer(bytes);
        for (SseEvent event : relayed) {
            event.appendTo(write);
        }
        return write.length();
    }
}
