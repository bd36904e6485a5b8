package io.agentfuse.bench;

import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.tokens.CachingTokenCounter;
import io.agentfuse.agent.tokens.TiktokenCounter;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.bench.workload.CodingAgentConversation;
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
 * Counting the ~150 KB coding-agent conversation ({@link CodingAgentConversation}, 60 turns) in
 * {@code o200k_base}, as the context ladder does for a model with a 200 000-token window:
 * <ul>
 *   <li>{@code fullCount}: tokenising everything, what every long request cost before;</li>
 *   <li>{@code firstTime}: a fresh cache, counting every message (the cost of a conversation the
 *       gateway has never seen, when the bound does not settle it);</li>
 *   <li>{@code repeatWithOneNewTurn}: the same conversation resent with one more turn, the
 *       previous one counted already (in a fresh cache before each call): only the new turn is
 *       tokenised;</li>
 *   <li>{@code repeatAllRemembered}: a conversation whose every message is remembered;</li>
 *   <li>{@code upperBound}: the proven bound alone, one pass over the chars;</li>
 *   <li>{@code ladderLevel}: {@link Compactor#levelOf} on the resent conversation, which the
 *       bound or the cache answers.</li>
 * </ul>
 * Run: {@code java -jar agentfuse-bench/target/benchmarks.jar TokenCountingBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class TokenCountingBench {

    private static final TokenCounter EXACT = TiktokenCounter.o200k();

    private final TokenCounter exact = EXACT;
    private Conversation conversation;
    private Conversation resent;
    private CachingTokenCounter warm;
    private Compactor ladder;

    @Setup(Level.Trial)
    public void setUp() {
        conversation = CONVERSATION;
        resent = CodingAgentConversation.of(CodingAgentConversation.DEFAULT_TURNS + 1).conversation();
        warm = new CachingTokenCounter(exact, CachingTokenCounter.DEFAULT_CAPACITY);
        warm.countConversation(resent);
        ladder = Compactor.builder(ContextBudget.of(ContextConfig.defaults(), 200_000), warm).build();
    }

    @Benchmark
    public int fullCount() {
        return exact.countConversation(conversation);
    }

    @Benchmark
    public int firstTime() {
        return new CachingTokenCounter(exact, CachingTokenCounter.DEFAULT_CAPACITY).countConversation(conversation);
    }

    @Benchmark
    public int repeatWithOneNewTurn(PreviousTurnCounted previous) {
        return previous.counter.countConversation(resent);
    }

    @Benchmark
    public int repeatAllRemembered() {
        return warm.countConversation(resent);
    }

    @Benchmark
    public int upperBound() {
        return exact.upperBoundConversation(conversation);
    }

    @Benchmark
    public ContextLevel ladderLevel() {
        return ladder.levelOf(resent);
    }

    /** A fresh cache that has counted the 60-turn conversation, before each call. */
    @State(Scope.Thread)
    public static class PreviousTurnCounted {
        CachingTokenCounter counter;

        @Setup(Level.Invocation)
        public void countThePreviousTurn() {
            counter = new CachingTokenCounter(EXACT, CachingTokenCounter.DEFAULT_CAPACITY);
            counter.countConversation(CONVERSATION);
        }
    }

    private static final Conversation CONVERSATION =
            CodingAgentConversation.of(CodingAgentConversation.DEFAULT_TURNS).conversation();
}
