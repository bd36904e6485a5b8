package io.agentfuse.bench.hedge;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hedging's effect on tail latency (docs/design.md §13): the same streamed workload, in which 10 %
 * of the primary model's first tokens stall ({@link StallingUpstream}), through the gateway twice —
 * without a hedge, and with {@code hedge: {after, maxShare}} racing the fallback — and the p50, p99
 * and max of each request's time to its complete answer, with how many answers a hedge gave.
 * Everything runs in this JVM on loopback: the figures compare the two runs, not the gateway with
 * anything else.
 *
 * <pre>
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.hedge.HedgeBench [requests] [connections] [hedgeAfter]
 * </pre>
 * Defaults: 2000 requests over 8 connections, hedge after 200ms at most 20 % of requests; stalls of
 * 3 s on every 10th primary request, healthy first tokens after 20 ms.
 */
public final class HedgeBench {

    private static final int STALL_EVERY = 10;
    private static final long STALL_MILLIS = 3_000;
    private static final long FIRST_TOKEN_MILLIS = 20;
    private static final String CONFIG = """
            server:
              port: 0
            providers:
              upstream: { type: openai, baseUrl: "http://127.0.0.1:${UPSTREAM_PORT}/v1", apiKey: "sk-bench" }
            retry:
              maxAttempts: 1
            models:
              primary:
                provider: upstream
                upstreamModel: slow-upstream
                firstTokenTimeout: 30s
                fallbacks: [backup]
            ${HEDGE}
              backup: { provider: upstream, upstreamModel: healthy-upstream, firstTokenTimeout: 30s }
            """;
    private static final String BODY = "{\"model\":\"primary\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private HedgeBench() {
    }

    /** Runs both rounds and prints a table. */
    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int connections = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        String hedgeAfter = args.length > 2 ? args[2] : "200ms";
        Vertx vertx = GatewayVertx.create();
        try {
            StallingUpstream upstream = await(StallingUpstream.start(vertx, STALL_EVERY, STALL_MILLIS, FIRST_TOKEN_MILLIS));
            System.out.println("| run | requests | p50 ms | p99 ms | max ms | hedged |");
            System.out.println("|---|---|---|---|---|---|");
            System.out.println(round(vertx, upstream, "no hedge", "", requests, connections));
            System.out.println(round(vertx, upstream, "hedge after " + hedgeAfter,
                    hedgeLine(hedgeAfter), requests, connections));
        } finally {
            await(vertx.close());
        }
    }

    private static String round(Vertx vertx, StallingUpstream upstream, String name, String hedge, int requests,
                                int connections) throws Exception {
        AgentfuseConfig config = config(hedge, upstream.port());
        GatewayServer gateway = await(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(connections));
        try {
            long[] millis = new long[requests];
            AtomicInteger next = new AtomicInteger();
            AtomicInteger hedged = new AtomicInteger();
            Promise<Void> done = Promise.promise();
            AtomicInteger running = new AtomicInteger(connections);
            for (int i = 0; i < connections; i++) {
                send(client, gateway.port(), millis, next, hedged, done, running);
            }
            await(done.future());
            Arrays.sort(millis);
            return "| " + name + " | " + requests + " | " + quantile(millis, 0.50) + " | " + quantile(millis, 0.99)
                    + " | " + millis[millis.length - 1] + " | " + hedged.get() + " |";
        } finally {
            await(client.close());
            await(gateway.close());
        }
    }

    /** The gateway's configuration for a round: primary → backup on {@code port}, with {@code hedge} (a YAML line, or empty). */
    static AgentfuseConfig config(String hedge, int port) {
        return ConfigLoader.parse(CONFIG.replace("${HEDGE}", hedge), "hedge-bench.yaml",
                Map.of("UPSTREAM_PORT", Integer.toString(port)));
    }

    /** The hedge line of {@link #config} for a hedge after {@code after}. */
    static String hedgeLine(String after) {
        return "    hedge: { after: " + after + ", maxShare: 20% }";
    }

    /** One connection's loop: the next request once the last one's answer is complete. */
    private static void send(HttpClient client, int port, long[] millis, AtomicInteger next, AtomicInteger hedged,
                             Promise<Void> done, AtomicInteger running) {
        int index = next.getAndIncrement();
        if (index >= millis.length) {
            if (running.decrementAndGet() == 0) {
                done.tryComplete();
            }
            return;
        }
        long started = System.nanoTime();
        client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                        .setURI("/v1/chat/completions").putHeader("content-type", "application/json"))
                .compose(request -> request.send(BODY))
                .compose(response -> {
                    if (response.getHeader("x-agentfuse-hedged") != null) {
                        hedged.incrementAndGet();
                    }
                    return response.body().map(body -> response.statusCode());
                })
                .onComplete(answered -> {
                    if (answered.failed() || answered.result() != 200) {
                        done.tryFail(answered.failed() ? answered.cause()
                                : new IllegalStateException("request " + index + " answered " + answered.result()));
                        return;
                    }
                    millis[index] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    send(client, port, millis, next, hedged, done, running);
                });
    }

    /** The {@code q} quantile of {@code sorted} (nearest rank). */
    static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    }
}
