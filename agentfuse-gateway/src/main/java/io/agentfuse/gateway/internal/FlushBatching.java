package io.agentfuse.gateway.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds a connection's flushes until its event loop has handled every ready read, as Netty's
 * {@code FlushConsolidationHandler} does with {@code consolidateWhenNoReadInProgress}, with one
 * task per turn of the loop for all its connections instead of one submitted task, with its
 * promise, per held flush. A proxy's flushes are nearly all of that kind — the provider's request
 * is written while the caller's connection is read, the answer while the provider's is — so that
 * handler queued two tasks per small request: some 2 % of the loops' time went to its queue.
 *
 * <p>The rules, each as Netty's handler has it: a flush while the connection itself is being read
 * waits for that read to complete; any other flush waits for the loop's task; after
 * {@value #FLUSH_AFTER_HELD} held flushes, on a close, a disconnect or an exception, when the
 * connection stops being writable and when this handler is removed, whatever is held is flushed
 * at once. A flush is thus delayed by microseconds, never by a timer.
 *
 * <p>One per connection, at the head of its pipeline ({@link ConnectionTuning}); confined to the
 * connection's event loop, as Netty calls its handlers.
 */
final class FlushBatching extends ChannelDuplexHandler {

    /** Held flushes after which a connection is flushed at once (Netty's handler's default). */
    static final int FLUSH_AFTER_HELD = 256;

    private static final FastThreadLocal<LoopTurn> TURNS = new FastThreadLocal<>() {
        @Override
        protected LoopTurn initialValue() {
            return new LoopTurn();
        }
    };

    private ChannelHandlerContext ctx;
    private int held;
    private boolean reading;
    /** Whether this connection waits in its loop's turn. */
    private boolean waiting;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (++held == FLUSH_AFTER_HELD) {
            flushNow();
        } else if (!reading && !waiting) {
            waiting = true;
            TURNS.get().add(this, ctx.channel().eventLoop());
        } // while reading: flushed when the read completes
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        reading = true;
        ctx.fireChannelRead(message);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readEndedAndFlush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        readEndedAndFlush();
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
        readEndedAndFlush();
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        readEndedAndFlush();
        ctx.close(promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            flushIfHeld(); // what is held would only grow
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        flushIfHeld();
    }

    private void readEndedAndFlush() {
        reading = false;
        flushIfHeld();
    }

    private void flushIfHeld() {
        if (held > 0) {
            flushNow();
        }
    }

    private void flushNow() {
        held = 0;
        ctx.flush();
    }

    /** The connections of one event loop whose flushes wait for the loop's next task. */
    private static final class LoopTurn implements Runnable {
        private List<FlushBatching> waiting = new ArrayList<>();
        private List<FlushBatching> spare = new ArrayList<>();

        void add(FlushBatching connection, EventLoop loop) {
            waiting.add(connection);
            if (waiting.size() == 1) {
                loop.execute(this);
            }
        }

        @Override
        public void run() {
            // A flush may make another connection flush (a drained caller resumes its provider's
            // answer): that one waits in the fresh list, for the task its arrival queues.
            List<FlushBatching> due = waiting;
            waiting = spare;
            spare = due;
            for (int i = 0; i < due.size(); i++) {
                FlushBatching connection = due.get(i);
                connection.waiting = false;
                if (!connection.reading) {
                    connection.flushIfHeld();
                } // else: its read is under way and flushes when it completes
            }
            due.clear();
        }
    }
}
