package io.agentfuse.bench.gateway;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The upstream of the gateway benchmark: an OpenAI-compatible server that answers every
 * {@code POST /v1/chat/completions} at once with the same realistic {@code chat.completion}
 * (with {@code usage}), so that a load test measures the gateway in front of it, not a model. A
 * small request with {@code "stream":true} is answered with a stream of {@value #STREAM_EVENTS}
 * {@code chat.completion.chunk} events, each written on its own, then {@code data: [DONE]}.
 *
 * <p>A long request (an agent's conversation, over 16 KB) is answered with the input a provider
 * would report for it, one token per four bytes, which the gateway's context ladder counts the
 * conversation's next turn by: the benchmark takes the path of a real provider's answers, not one
 * that a made-up count of 8 tokens keeps the gateway off.
 *
 * <p>It answers from one event loop with a body and headers built once, keeps connections alive,
 * and logs nothing per request. {@code GET /requests} answers how many completions it served,
 * so a benchmark can prove that a gateway really forwarded its load here. Anything else is 404.
 *
 * <p>Listens on {@code 127.0.0.1} only. Thread-safe; runs until the JVM is stopped.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.FixedAnswerUpstream 18080
 * curl -s -XPOST http://127.0.0.1:18080/v1/chat/completions -d '{"model":"gpt-4o-mini"}'
 * }</pre>
 */
public final class FixedAnswerUpstream {

    /** The path answered with the fixed completion. */
    public static final String COMPLETIONS_PATH = "/v1/chat/completions";
    /** The path that reports how many completions were served. */
    public static final String COUNTER_PATH = "/requests";

    /** The answer to every request that does not ask for a stream. */
    public static final String COMPLETION = """
            {"id":"chatcmpl-AgentfuseBench000000000001","object":"chat.completion",\
            "created":1735689600,"model":"gpt-4o-mini-2024-07-18",\
            "choices":[{"index":0,"message":{"role":"assistant",\
            "content":"Hello! How can I help you today?","refusal":null,"annotations":[]},\
            "logprobs":null,"finish_reason":"stop"}],\
            "usage":{"prompt_tokens":8,"completion_tokens":9,"total_tokens":17,\
            "prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},\
            "completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,\
            "accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},\
            "service_tier":"default","system_fingerprint":"fp_bench000001"}""";

    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence EVENT_STREAM = HttpHeaders.createOptimized("text/event-stream");
    /** The events of a streamed answer: 19 content chunks and a finishing one, then {@code [DONE]}. */
    public static final int STREAM_EVENTS = 20;
    // Only a small body is searched for "stream":true; the long conversations are never streamed.
    private static final int STREAM_SCAN_LIMIT = 16 * 1024;
    /** The bytes of a long request reported as one input token: about what a tokenizer makes of English, code and JSON. */
    static final int BYTES_PER_PROMPT_TOKEN = 4;
    private static final String FIXED_USAGE = "\"prompt_tokens\":8,\"completion_tokens\":9,\"total_tokens\":17";
    private static final byte[] STREAM_TRUE = "\"stream\":true".getBytes(StandardCharsets.UTF_8);

    private final Buffer completion = Buffer.buffer(COMPLETION.getBytes(StandardCharsets.UTF_8));
    private final CharSequence completionLength = HttpHeaders.createOptimized(
            Integer.toString(completion.length()));
    private final List<Buffer> streamEvents = streamEvents();
    private final LongAdder served = new LongAdder();
    /** The answers of long requests by their input tokens: a benchmark resends a few conversations, built once each. */
    private final Map<Long, Buffer> completionsByPrompt = new HashMap<>();

    /**
     * Starts the upstream on {@code 127.0.0.1:PORT} ({@code args[0]}, default 0 = any free port)
     * and prints {@code listening on PORT} once it accepts connections; exits with status 1 when
     * it cannot listen.
     */
    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        // One event loop: the load generator and the gateway need the other cycles of a small machine.
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        try {
            HttpServer server = new FixedAnswerUpstream().listen(vertx, port).await();
            System.out.println("listening on " + server.actualPort());
        } catch (Exception e) { // await() rethrows the bind failure as it is, checked or not
            // Vert.x threads would keep a JVM that serves nothing alive: a taken port must end it.
            System.err.println("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
            System.exit(1);
        }
    }

    /** Starts answering on {@code 127.0.0.1:port}. */
    public io.vertx.core.Future<HttpServer> listen(Vertx vertx, int port) {
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setTcpNoDelay(true)
                .setCompressionSupported(false);
        return vertx.createHttpServer(options).requestHandler(this::handle).listen();
    }

    private void handle(HttpServerRequest request) {
        if (request.method() == HttpMethod.POST && COMPLETIONS_PATH.equals(request.path())) {
            // Answer once the request body is fully read, so a keep-alive connection stays in step.
            request.body().onSuccess(body -> {
                if (asksForStream(body)) {
                    answerStream(request);
                } else {
                    answerCompletion(request, body.length() > STREAM_SCAN_LIMIT ? completionOf(body.length()) : completion);
                }
            });
        } else if (request.method() == HttpMethod.GET && COUNTER_PATH.equals(request.path())) {
            request.response().putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                    .end("{\"requests\":" + served.sum() + "}");
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    private static boolean asksForStream(Buffer body) {
        int length = body.length();
        if (length > STREAM_SCAN_LIMIT) {
            return false;
        }
        outer:
        for (int i = 0; i + STREAM_TRUE.length <= length; i++) {
            for (int j = 0; j < STREAM_TRUE.length; j++) {
                if (body.getByte(i + j) != STREAM_TRUE[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    // Each event is its own write, as a provider's stream arrives: one chunk per token or two.
    private void answerStream(HttpServerRequest request) {
        served.increment();
        var response = request.response().setChunked(true);
        response.headers().set(HttpHeaders.CONTENT_TYPE, EVENT_STREAM);
        for (Buffer event : streamEvents) {
            response.write(event);
        }
        response.end();
    }

    /** The streamed answer's events as written, each its own buffer: {@value #STREAM_EVENTS} chunks, then {@code [DONE]}. */
    public static List<Buffer> streamEvents() {
        List<Buffer> events = new ArrayList<>();
        String head = "data: {\"id\":\"chatcmpl-AgentfuseBench000000000002\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1735689600,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_bench000001\","
                + "\"choices\":[{\"index\":0,";
        for (int i = 0; i < STREAM_EVENTS - 1; i++) {
            String delta = i == 0 ? "{\"role\":\"assistant\",\"content\":\"Word\"}" : "{\"content\":\" word" + i + "\"}";
            events.add(Buffer.buffer(head + "\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":null}]}\n\n"));
        }
        events.add(Buffer.buffer(head + "\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n"));
        events.add(Buffer.buffer("data: [DONE]\n\n"));
        return List.copyOf(events);
    }

    private void answerCompletion(HttpServerRequest request, Buffer answer) {
        served.increment();
        MultiMap headers = request.response().headers();
        headers.set(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON);
        headers.set(HttpHeaders.CONTENT_LENGTH, answer == completion ? completionLength : Integer.toString(answer.length()));
        request.response().end(answer);
    }

    /** The completion of a request of {@code bytes} bytes, reporting its input as a provider would; on the one event loop. */
    private Buffer completionOf(int bytes) {
        long prompt = bytes / BYTES_PER_PROMPT_TOKEN;
        return completionsByPrompt.computeIfAbsent(prompt, tokens -> Buffer.buffer(COMPLETION.replace(FIXED_USAGE,
                "\"prompt_tokens\":" + tokens + ",\"completion_tokens\":9,\"total_tokens\":" + (tokens + 9))
                .getBytes(StandardCharsets.UTF_8)));
    }
}
