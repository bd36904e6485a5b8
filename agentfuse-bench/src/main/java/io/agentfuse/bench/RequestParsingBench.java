package io.agentfuse.bench;

import io.agentfuse.agent.tokens.CachingTokenCounter;
import io.agentfuse.agent.tokens.TiktokenCounter;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.bench.workload.CodingAgentConversation;
import io.agentfuse.gateway.context.ConversationMapper;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.http.ValueMemo;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the gateway does to the ~150 KB coding-agent conversation ({@link CodingAgentConversation},
 * 60 turns, OpenAI chat body with four tool schemas) before it may forward it: decode the body,
 * parse it into the neutral model, and bound its tokens for the context ladder.
 * <ul>
 *   <li>{@code resent}: the same body again, every value of it remembered (an agent retrying, or
 *       the bench's load);</li>
 *   <li>{@code oneTurnLonger}: the conversation one turn longer than the one remembered (an agent's
 *       next turn: three new messages);</li>
 *   <li>{@code neverSeen}: a fresh memo and counter each time (the first request of a conversation);</li>
 *   <li>{@code withoutMemo}: decoding it whole, as for a body without a memo.</li>
 * </ul>
 * Run: {@code java -jar agentfuse-bench/target/benchmarks.jar RequestParsingBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class RequestParsingBench {

    private static final TokenCounter O200K = TiktokenCounter.o200k();

    private Buffer conversation;
    private Buffer nextTurn;
    private ValueMemo memo;
    private TokenCounter counter;

    @Setup(Level.Trial)
    public void setUp() {
        conversation = body(CodingAgentConversation.DEFAULT_TURNS);
        nextTurn = body(CodingAgentConversation.DEFAULT_TURNS + 1);
        memo = new ValueMemo(8_192, 16L << 20);
        counter = new CachingTokenCounter(O200K, CachingTokenCounter.DEFAULT_CAPACITY);
        parseAndBound(conversation, memo, counter);
    }

    @Benchmark
    public long resent() {
        return parseAndBound(conversation, memo, counter);
    }

    @Benchmark
    public long oneTurnLonger(PreviousTurnRemembered previous) {
        return parseAndBound(nextTurn, previous.memo, previous.counter);
    }

    @Benchmark
    public long neverSeen() {
        return parseAndBound(conversation, new ValueMemo(8_192, 16L << 20),
                new CachingTokenCounter(O200K, CachingTokenCounter.DEFAULT_CAPACITY));
    }

    @Benchmark
    public long withoutMemo() {
        return parseAndBound(conversation, null, new CachingTokenCounter(O200K, CachingTokenCounter.DEFAULT_CAPACITY));
    }

    /** A memo and counter that have seen the 60-turn conversation, fresh before each call. */
    @State(Scope.Thread)
    public static class PreviousTurnRemembered {
        private final Buffer previousTurn = body(CodingAgentConversation.DEFAULT_TURNS);
        ValueMemo memo;
        TokenCounter counter;

        @Setup(Level.Invocation)
        public void rememberThePreviousTurn() {
            memo = new ValueMemo(8_192, 16L << 20);
            counter = new CachingTokenCounter(O200K, CachingTokenCounter.DEFAULT_CAPACITY);
            parseAndBound(previousTurn, memo, counter);
        }
    }

    private static long parseAndBound(Buffer body, ValueMemo memo, TokenCounter counter) {
        JsonObject json = (JsonObject) StrictJson.decode(body, new StrictJson.FieldSpans(), memo);
        ChatRequest request = Dialects.OPENAI.parseRequest(json);
        return ConversationMapper.upperBound(request, counter);
    }

    private static Buffer body(int turns) {
        return Buffer.buffer(CodingAgentConversation.of(turns).body("gpt-4o-mini").toString()
                .getBytes(StandardCharsets.UTF_8));
    }
}
