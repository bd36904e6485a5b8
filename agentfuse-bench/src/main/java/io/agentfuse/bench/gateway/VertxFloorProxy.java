package io.agentfuse.bench.gateway;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.GatewayVertx;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import java.util.Locale;

/**
 * The floor under the gateway's cost: the least a proxy built on Vert.x 5 does for a chat
 * request — read the body, send it to the upstream on a pooled keep-alive connection of the same
 * event loop, read the answer, send it back — with one server verticle per core and the network
 * transport the gateway picks by the same rule ({@code GatewayVertx}: io_uring where the kernel
 * allows it, else epoll, else NIO; a third argument names one, as {@code server.transport} does),
 * but no router, no checks, no guards, no metrics. What the gateway costs above this is
 * agentfuse's; what this costs above nginx is Vert.x's and the JVM's. The gateway's small-request
 * target is at least 0.9× this floor's requests/s on the same transport ({@code DoneWhenChecks}).
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.VertxFloorProxy PORT UPSTREAM_PORT [auto|io_uring|epoll|nio]
 * TARGET=vertx-floor agentfuse-bench/gateway/measure-cost.sh small 32
 * }</pre>
 *
 * <p>Listens on {@code 127.0.0.1} only; any failure is a 502 without a body. A benchmark
 * reference, not a product.
 */
public final class VertxFloorProxy {

    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");

    private VertxFloorProxy() {
    }

    /**
     * Proxies {@code 127.0.0.1:args[0]} to {@code 127.0.0.1:args[1]} until the JVM is stopped, on the
     * transport {@code args[2]} names ({@code auto} when absent).
     */
    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int upstream = Integer.parseInt(args[1]);
        ServerConfig.Transport transport = args.length > 2
                ? ServerConfig.Transport.valueOf(args[2].toUpperCase(Locale.ROOT)) : ServerConfig.Transport.AUTO;
        Vertx vertx = GatewayVertx.create(transport, new VertxOptions());
        int loops = Runtime.getRuntime().availableProcessors();
        vertx.deployVerticle(() -> new VerticleBase() {
            @Override
            public Future<?> start() {
                // A client per verticle, as the gateway has one per event loop: its connections live on
                // this loop. One client shared by every loop made requests hop to another loop's
                // connections (RESULTS.md, run 27: Netty's client saved 4.5 µs against the shared
                // client, 1.9 µs against a client per loop; the hop itself was not measured alone).
                HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
                        .setDefaultPort(upstream).setKeepAlive(true).setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(64));
                return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true))
                        .requestHandler(request -> proxy(client, request)).listen();
            }
        }, new DeploymentOptions().setInstances(loops)).await();
        System.out.println("listening on " + port + " (network transport: " + GatewayVertx.describe(vertx) + ")");
    }

    private static void proxy(HttpClient client, HttpServerRequest request) {
        request.body()
                .compose(body -> client.request(new RequestOptions().setMethod(HttpMethod.POST).setURI(request.uri())
                                .putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON))
                        .compose(upstream -> upstream.send(body)))
                .compose(answer -> answer.body().map(body -> request.response().setStatusCode(answer.statusCode())
                        .putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON).end(body)))
                .onFailure(error -> request.response().setStatusCode(502).end());
    }
}
