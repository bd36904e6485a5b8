package io.agentfuse.bench;

import io.agentfuse.bench.gateway.FixedAnswerUpstream;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JSON work the gateway does for the gateway benchmark's small request, alone: the request's
 * body decoded ({@code decode}: {@link StrictJson}, which reads a small plain body without a
 * parser; {@code decodeByJackson}: Vert.x's Jackson decoding, what a parser costs for it), decoded
 * and parsed into the neutral model ({@code decodeAndParse}), and the upstream's answer checked
 * for its shape and usage ({@code answerCheck}, the benchmark upstream's fixed completion).
 * Run: {@code java -jar agentfuse-bench/target/benchmarks.jar SmallRequestBench -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Thread)
public class SmallRequestBench {

    private final Buffer request = Buffer.buffer("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    private final Buffer answer = Buffer.buffer(FixedAnswerUpstream.COMPLETION.getBytes(StandardCharsets.UTF_8));

    @Benchmark
    public Object decode() {
        return StrictJson.decode(request, new StrictJson.FieldSpans());
    }

    @Benchmark
    public Object decodeByJackson() {
        return Json.decodeValue(request);
    }

    @Benchmark
    public ChatRequest decodeAndParse() {
        return Dialects.OPENAI.parseRequest((JsonObject) StrictJson.decode(request, new StrictJson.FieldSpans()));
    }

    @Benchmark
    public Usage answerCheck() {
        return Dialects.OPENAI.usageIfWellFormed(answer);
    }
}
