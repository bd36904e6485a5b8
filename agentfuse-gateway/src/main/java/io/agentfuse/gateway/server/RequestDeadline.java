package io.agentfuse.gateway.server;

import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.internal.CallerWritability;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.util.AttributeKey;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of one client connection (slowloris): the first request's head must arrive within
 * {@code headerTimeout} of connecting, each request's body within {@code headerTimeout} of its
 * head, and the next request on a keep-alive connection within {@code idleTimeout} of the last
 * answer. A connection whose head is late is closed; one whose body is late is answered 408 and
 * closed. A request being answered (a long stream, say) is not cut by these deadlines, unless its
 * caller has stopped reading: a response whose caller takes no more writes (its write buffer full,
 * {@link CallerWritability}, or Vert.x's write queue) at two checks in a row, having taken nothing
 * between them, is cut. A full buffer alone does not tell a caller that stopped from one that reads
 * more slowly than the gateway writes (a large answer is written as the caller takes it, so its
 * buffer is full almost all the time): that caller was cut halfway through its answer.
 * Every close here is immediate ({@link Disconnect}): a graceful one would wait for the peer.
 *
 * <p>One timer per connection, checked when it fires rather than reset on every byte, because
 * Vert.x tells of a request only once its head is complete. Nor is it reset on every request: a
 * request only moves the deadline, and a timer that fires before the deadline it finds is set
 * again for the rest (on a busy keep-alive connection, one timer per {@code headerTimeout}
 * instead of a cancelled and a new one per request). The idle time starts when the answer's last
 * byte is written (the response's {@code bodyEndHandler}, which this class owns, is this object),
 * not when the timer next fires: else an idle connection would be closed {@code headerTimeout}
 * late. This is also the gateway's idle timeout: Vert.x's own would cut a request that waits
 * longer than it for its provider's answer.
 *
 * <p>It also holds the {@link LargeBodies} ticket of the request being answered, given back when the
 * answer's last byte is written or the connection closes ({@link #holdLargeBody}). Confined to the
 * connection's event loop.
 */
final class RequestDeadline implements Handler<Void> {

    /** Each connection's deadlines, on its channel: found without a shared table on every request. */
    private static final AttributeKey<RequestDeadline> DEADLINE = AttributeKey.valueOf(RequestDeadline.class, "deadline");

    private final Vertx vertx;
    private final HttpConnection connection;
    private final long headerMillis;
    private final long idleMillis;
    private final LargeBodies largeBodies;
    private HttpServerRequest current;
    /** The large body of {@link #current}, taken from the server's budget. */
    private LargeBodies.Ticket held = LargeBodies.Ticket.NONE;
    private long timer = -1;
    /** When the armed timer fires, and the deadline of the connection's current state (System.nanoTime). */
    private long timerDue;
    private long deadline;
    private boolean closed;
    private int stalledChecks;
    /** What the current response's caller had taken at the last check ({@link CallerWritability#bytesTaken}); -1: none yet. */
    private long takenAtCheck = -1;

    RequestDeadline(Vertx vertx, HttpConnection connection, Duration headerTimeout, Duration idleTimeout,
                    LargeBodies largeBodies) {
        this.vertx = vertx;
        this.connection = connection;
        this.headerMillis = Math.max(1, headerTimeout.toMillis());
        this.idleMillis = Math.max(1, idleTimeout.toMillis());
        this.largeBodies = largeBodies;
        arm(headerMillis);
        VertxHooks.channel(connection).attr(DEADLINE).set(this);
    }

    /** The deadlines of {@code connection}; {@code null} for a connection no {@link ConnectionGuard} admitted. */
    static RequestDeadline of(HttpConnection connection) {
        return VertxHooks.channel(connection).attr(DEADLINE).get();
    }

    /** A request's head arrived: its body now has {@code headerTimeout}. */
    void onRequest(HttpServerRequest request) {
        giveBackBody(); // the last request's answer has been written: the next is read only then
        current = request;
        stalledChecks = 0;
        takenAtCheck = -1;
        request.response().bodyEndHandler(this);
        moveDeadline(headerMillis);
    }

    /**
     * Takes {@code bytes} of the large-body budget for the current request's body, held until it is
     * answered, in all (a chunked body's count grows as it arrives): whether the budget had room for them.
     */
    boolean holdLargeBody(long bytes) {
        if (held != LargeBodies.Ticket.NONE) {
            return held.growTo(bytes);
        }
        LargeBodies.Ticket ticket = largeBodies.take(bytes);
        if (ticket == null) {
            return false;
        }
        held = ticket;
        return true;
    }

    /**
     * The current request's body, counted as the largest there may be while its length was not
     * known, has arrived, {@code bytes} long: only these are held from now on.
     */
    void largeBodyArrived(long bytes) {
        held.keepOnly(bytes);
    }

    /** The current request keeps nothing of its body any more: it stops counting, though its answer goes on. */
    void letGoOfBody() {
        giveBackBody();
    }

    /** The answer to the current request has been written: the next request now has {@code idleTimeout}. */
    @Override
    public void handle(Void answered) {
        if (closed || current == null || !current.response().ended()) {
            return; // a later request is current already: its own deadline stands
        }
        current = null;
        giveBackBody();
        moveDeadline(idleMillis);
    }

    private void giveBackBody() {
        held.giveBack();
        held = LargeBodies.Ticket.NONE;
    }

    /** Moves the deadline to {@code millis} from now; the armed timer is kept unless it would fire too late. */
    private void moveDeadline(long millis) {
        long now = System.nanoTime();
        deadline = now + TimeUnit.MILLISECONDS.toNanos(millis);
        if (timer < 0 || timerDue - deadline > 0) {
            arm(millis, now);
        }
    }

    void onClose() {
        closed = true;
        cancel();
        giveBackBody();
    }

    private void fire() {
        timer = -1;
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        if (deadline - now > 0) {
            arm(TimeUnit.NANOSECONDS.toMillis(deadline - now + 999_999), now); // a later request moved the deadline
            return;
        }
        if (current == null) {
            Disconnect.now(connection); // the head never arrived in time, or the connection sat idle
        } else if (!current.isEnded()) {
            EdgeErrors.refuse(current, GatewayError.REQUEST_TIMEOUT, "the request body did not arrive within "
                    + headerMillis + " ms (server.headerTimeout)");
        } else if (!current.response().ended()) {
            long taken = CallerWritability.bytesTaken(connection, current.response());
            boolean tookSince = takenAtCheck >= 0 && taken > takenAtCheck; // a write while stalled adds framing: less
            takenAtCheck = taken;
            stalledChecks = !tookSince && CallerWritability.takesNoMore(connection, current.response()) ? stalledChecks + 1 : 0;
            if (stalledChecks >= 2) {
                Disconnect.now(connection); // the caller stopped reading what it asked for
            } else {
                arm(headerMillis); // still being answered: look again later
            }
        } else {
            current = null; // answered, and the answer's end was not seen: idleTimeout from now
            giveBackBody();
            arm(idleMillis);
        }
    }

    /** Sets the deadline {@code millis} from now, and a timer for it. */
    private void arm(long millis) {
        long now = System.nanoTime();
        deadline = now + TimeUnit.MILLISECONDS.toNanos(millis);
        arm(millis, now);
    }

    private void arm(long millis, long now) {
        cancel();
        timerDue = now + TimeUnit.MILLISECONDS.toNanos(millis);
        timer = vertx.setTimer(millis, id -> fire());
    }

    private void cancel() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
