package io.agentfuse.gateway.server;

import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.time.Duration;

/**
 * How many bytes of large request bodies the server takes on at once. A request's body lives twice
 * over while it is prepared within its own dialect (the bytes read, which are the bytes forwarded,
 * and the decoded text, whose media no step copies: {@link io.agentfuse.gateway.dialect.MediaSource}),
 * and once (the bytes sent) until its answer comes (a stream lets them go once its answer begins,
 * unless it may be continued). Across dialects it lives three times over until its answer comes
 * (the bytes read, the translated body kept for a retry, the bytes sent), and no more while that
 * body is encoded ({@link io.agentfuse.gateway.http.JsonPieces} writes it in pieces never joined,
 * where Vert.x's encoding copied it twice more; a medium crossing between a data URL and base64
 * apart is copied once into the other form); measured on a 3.6 MB screenshot, whose
 * data URL once cost every Anthropic request a third copy. Twenty 9.5 MB requests at once against
 * a gateway at {@code -Xmx128m} (an agent's
 * conversation with a few screenshots in it is that size, resent every turn) collected garbage
 * until eleven of them timed out waiting for their bodies and nine were reset, and ran out of heap
 * on the way. Bodies of a conversation's size fill it too: three hundred 650 KB conversations at
 * once against a provider taking 5 s wedged a 128 MiB gateway in back-to-back full collections
 * (122 of 123 MB live) that went on after every caller had given up, when only bodies of a mebibyte
 * or more were counted. So a request that announces a body of {@value #COUNTED_BYTES} bytes or more
 * is taken only while the bodies of the requests not yet answered (a stream's: not yet begun) leave
 * room for it; else it is refused, 429 {@code overloaded} with a {@code Retry-After} of
 * {@value #RETRY_AFTER_SECONDS} s, its body dropped as it arrives (never kept) and its connection
 * closed. A body whose length is not announced (chunked) is counted by the most it may be while
 * it arrives ({@link #countedWhileArriving}): {@value #LARGE_BYTES} bytes once its first
 * {@value #COUNTED_BYTES} have come, the largest body the server takes ({@code server.maxBodySize})
 * once its first {@value #LARGE_BYTES} have, since nothing says it will be shorter; and as what it
 * is once all of it has arrived. It is refused the same way when the budget has no room for that.
 * Counting it as it grows would let many such bodies take the budget between them and every one
 * be refused half-way: twenty chunked 9.5 MB bodies at once were all refused so. Not counted before
 * its first mebibyte, three hundred chunked 650 KB bodies wedged a 128 MiB gateway as announced
 * ones had (a hostile caller need only leave out the length). Announced bodies under
 * {@value #COUNTED_BYTES} bytes are not counted either (a small request costs no more than the
 * length check; about a thousand such bodies at once, each living a few times over, would fill a
 * 128 MiB heap): {@link BodyAllowance} bounds what they are given before they arrive.
 *
 * <p>The budget is an eighth of the heap limit, and never less than the body limit, so that one
 * body of the largest size is always taken when it is the only one: 16 MiB at {@code -Xmx128m}.
 *
 * <p>Thread-safe: one per server, shared by its event loops and connections.
 *
 * <pre>{@code
 * LargeBodies.Ticket ticket = largeBodies.take(contentLength); // null: refuse, 429 overloaded
 * ...
 * ticket.giveBack(); // once the answer is written, or begins to stream (letGoOfBody), or its connection closed
 * }</pre>
 */
public final class LargeBodies {

    /** Announced bodies from this size on are counted. */
    public static final long COUNTED_BYTES = 64 * 1024;
    /** A body whose length is not announced is counted as the largest once this much of it has come. */
    public static final long LARGE_BYTES = 1024 * 1024;
    /** What a refused caller is told to wait. */
    public static final int RETRY_AFTER_SECONDS = 1;
    /** The digits of {@link #COUNTED_BYTES}: a {@code Content-Length} written shorter is under it. */
    private static final int COUNTED_DIGITS = Long.toString(COUNTED_BYTES).length();

    private final ByteBudget taken;

    /** A budget of {@code budget} bytes. */
    public LargeBodies(long budget) {
        if (budget < LARGE_BYTES) {
            throw new IllegalArgumentException("budget must be >= " + LARGE_BYTES + ", but was " + budget);
        }
        this.taken = new ByteBudget(budget);
    }

    /** The default budget: an eighth of this JVM's heap limit, and at least {@code maxBodySize}. */
    public static LargeBodies ofHeap(long maxBodySize) {
        return new LargeBodies(Math.max(LARGE_BYTES, Math.max(maxBodySize, Runtime.getRuntime().maxMemory() / 8)));
    }

    /**
     * Whether {@code request}'s {@code Content-Length} may be {@value #COUNTED_BYTES} or more, by the
     * length of the header alone: the one check every request pays.
     */
    static boolean mayAnnounceCounted(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && length.length() >= COUNTED_DIGITS;
    }

    /**
     * Takes {@code bytes} for one request's body.
     *
     * @return a ticket to give back once its answer is written; {@link Ticket#NONE} for a body
     *         under {@value #COUNTED_BYTES} bytes; {@code null} when the budget has no room for it
     */
    public Ticket take(long bytes) {
        if (bytes < COUNTED_BYTES) {
            return Ticket.NONE;
        }
        return taken.take(bytes) ? new Ticket(taken, bytes) : null;
    }

    /**
     * The request served on {@code connection} keeps nothing of its body any more (a stream whose
     * answer has begun, and that will not be continued): its large body stops counting. Nothing for
     * a body not counted, or a connection no {@link ConnectionGuard} admitted.
     */
    public static void letGoOfBody(HttpConnection connection) {
        RequestDeadline deadline = RequestDeadline.of(connection);
        if (deadline != null) {
            deadline.letGoOfBody();
        }
    }

    /**
     * What a body whose length is not announced counts while it arrives, {@code received} bytes of it
     * so far: nothing under {@value #COUNTED_BYTES}, then {@value #LARGE_BYTES}, then from
     * {@value #LARGE_BYTES} on {@code maxBodySize}, the most it may be.
     */
    static long countedWhileArriving(long received, long maxBodySize) {
        return received < COUNTED_BYTES ? 0 : received < LARGE_BYTES ? LARGE_BYTES : Math.max(LARGE_BYTES, maxBodySize);
    }

    /** The bytes taken now. */
    public long taken() {
        return taken.taken();
    }

    /**
     * The answer to a request refused for its large body: announced as {@code bytes} long, or not
     * announced and counted as {@code bytes} while it arrives.
     */
    static GatewayException refusal(long bytes, boolean announced) {
        return new GatewayException(GatewayError.OVERLOADED, "the gateway is reading as many large request bodies "
                + "as its memory allows; retry in a moment (this one " + (announced ? "announces " + bytes + " bytes)"
                : "does not announce its length, so it counts as the most it may be until all of it has come, " + bytes
                + " bytes; sent with a Content-Length it would count as what it is)"), Duration.ofSeconds(RETRY_AFTER_SECONDS));
    }

    /** The bytes of one body, taken from a budget; given back once. Confined to the request's connection. */
    public static final class Ticket {
        /** A body too small to count. */
        public static final Ticket NONE = new Ticket(null, 0);

        private final ByteBudget from;
        private long bytes;

        private Ticket(ByteBudget from, long bytes) {
            this.from = from;
            this.bytes = bytes;
        }

        /**
         * Holds {@code bytes} in all, taking what it lacks from its budget: whether the budget had room
         * (if not, it holds what it held). Not for {@link #NONE}.
         */
        boolean growTo(long bytes) {
            if (bytes <= this.bytes) {
                return true;
            }
            if (!from.take(bytes - this.bytes)) {
                return false;
            }
            this.bytes = bytes;
            return true;
        }

        /** Gives back what it holds beyond {@code bytes}: a body counted larger than it turned out. */
        public void keepOnly(long bytes) {
            if (bytes < this.bytes) {
                from.giveBack(this.bytes - bytes);
                this.bytes = bytes;
            }
        }

        /** Gives the bytes back; a second call does nothing. */
        public void giveBack() {
            if (bytes > 0) {
                from.giveBack(bytes);
                bytes = 0;
            }
        }
    }
}
