package io.agentfuse.gateway.server;

import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The stop a rolling deploy needs (docs/design.md §14), in its order:
 * <ol>
 *   <li>{@link Readiness} turns to draining at once: {@code /readyz} answers 503, and every response
 *       says {@code connection: close};</li>
 *   <li>for {@code drainDelay}, new connections are still accepted and served (a load balancer needs
 *       that long to see the 503 and stop sending);</li>
 *   <li>the listener closes ({@link Steps#listenerClosing()} first, for streams that never end by
 *       themselves); each connection closes once its response in flight has been sent;</li>
 *   <li>after {@code shutdownGrace}, {@link Steps#graceOver()} ends what is still in flight with an
 *       answer (a stream with its dialect's error event); the connections left are closed
 *       {@value #WRITE_MARGIN_MILLIS} ms later, time for those answers to be written.</li>
 * </ol>
 * The returned future completes when every connection is closed: at once when nothing is in
 * flight, at the latest about {@code drainDelay + shutdownGrace} after the start.
 *
 * <p>Not reusable: one stop per gateway. The timers run on Vert.x; the steps are called on an event loop.
 */
public final class GracefulShutdown {

    /** How long the answers written when the grace is over get before the connections are closed. */
    static final long WRITE_MARGIN_MILLIS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(GracefulShutdown.class);

    /** What the gateway does at the turns of the stop. */
    public interface Steps {
        /** The listener is about to close: end the streams that never end by themselves (event streams). */
        void listenerClosing();

        /** {@code shutdownGrace} is over: answer whatever is still in flight; completes when that is written or under way. */
        Future<Void> graceOver();

        /** Steps that run {@code listenerClosing} and {@code graceOver}. */
        static Steps of(Runnable listenerClosing, java.util.function.Supplier<Future<Void>> graceOver) {
            return new Steps() {
                @Override
                public void listenerClosing() {
                    listenerClosing.run();
                }

                @Override
                public Future<Void> graceOver() {
                    return graceOver.get();
                }
            };
        }
    }

    private final Vertx vertx;
    private final Readiness readiness;
    private final List<GatewayVerticle> servers;
    private final Steps steps;

    /**
     * @param vertx     runs the timers
     * @param readiness turned to draining at the start
     * @param servers   every server instance of the gateway
     * @param steps     what the gateway does at the turns of the stop
     */
    public GracefulShutdown(Vertx vertx, Readiness readiness, List<GatewayVerticle> servers, Steps steps) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.readiness = Objects.requireNonNull(readiness, "readiness");
        this.servers = List.copyOf(servers);
        this.steps = Objects.requireNonNull(steps, "steps");
    }

    /** Runs the stop with {@code settings} (those in force when the stop comes). */
    public Future<Void> run(ServerConfig.Shutdown settings) {
        readiness.draining();
        LOG.info("stopping: /readyz answers 503; new connections are still taken for {} (server.drainDelay)",
                DurationFormat.format(settings.drainDelay()));
        Promise<Void> drained = Promise.promise();
        vertx.setTimer(atLeastOneMilli(settings.drainDelay()), id -> closeListener(settings.shutdownGrace())
                .onComplete(drained));
        return drained.future();
    }

    private Future<Void> closeListener(Duration grace) {
        LOG.info("the listener closes; requests in flight have {} to finish (server.shutdownGrace)",
                DurationFormat.format(grace));
        steps.listenerClosing();
        Duration forcedAfter = grace.plusMillis(WRITE_MARGIN_MILLIS);
        Future<Void> closed = Future.join(servers.stream().map(server -> server.shutdown(forcedAfter)).toList()).mapEmpty();
        long graceTimer = vertx.setTimer(atLeastOneMilli(grace), id -> {
            LOG.warn("server.shutdownGrace is over: the requests still in flight are answered now and their connections closed");
            steps.graceOver();
        });
        return closed.andThen(done -> vertx.cancelTimer(graceTimer));
    }

    /** Vert.x timers take at least a millisecond. */
    private static long atLeastOneMilli(Duration duration) {
        return Math.max(1, duration.toMillis());
    }
}
