package io.agentfuse.gateway.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Buffers the gateway fills itself and hands to Vert.x as a body or a chunk: a plain array of the
 * exact size, wrapped.
 *
 * <p>Not pooled: Vert.x copies every pooled buffer it is given into one of its own, so a pooled one
 * would be copied twice. Not {@code Unpooled.buffer}: its allocator counts every buffer it makes in
 * a counter both event loops update (2.2 % of a 150 KB conversation's loop samples; in a stream's
 * profile more than the copy into it). Heap memory: nothing to release.
 *
 * <pre>{@code
 * ByteBuf body = HeapBuffers.ofCapacity(length); // empty, holds exactly length bytes
 * }</pre>
 */
public final class HeapBuffers {

    private HeapBuffers() {
    }

    /** An empty buffer that holds exactly {@code capacity} bytes. */
    public static ByteBuf ofCapacity(int capacity) {
        return Unpooled.wrappedBuffer(new byte[capacity]).clear();
    }
}
