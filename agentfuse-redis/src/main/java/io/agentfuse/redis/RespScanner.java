package io.agentfuse.redis;

import io.netty.buffer.ByteBuf;

/**
 * Follows the framing of what Redis sends (RESP2 and RESP3) as it arrives, without keeping it,
 * and says when an element announces more than the store will ever need: a bulk string or line
 * longer than {@code maxBytes}, an aggregate of more than {@code maxElements}. The store's replies
 * and messages are small (a record is a few hundred bytes); a 30 MB message on the channel is not
 * one of ours, and must be refused before the Redis client buffers and decodes it.
 *
 * <p>Each element starts with a type byte; line types end at CRLF, bulk types ({@code $ ! =})
 * announce their length on that line and are skipped by it, aggregates ({@code * % ~ > |})
 * announce a count and their elements follow as elements of their own. Not thread-safe: one per
 * connection, fed in order from its event loop.
 */
final class RespScanner {

    private enum Expect { TYPE, LINE, SKIP }

    private final long maxBytes;
    private final long maxElements;
    private Expect expect = Expect.TYPE;
    private byte type;
    private long lineLength;
    private long number;
    private boolean negative;
    private boolean numberOk;
    private boolean sawCr;
    private long skip;

    RespScanner(long maxBytes, long maxElements) {
        this.maxBytes = maxBytes;
        this.maxElements = maxElements;
    }

    /**
     * Follows {@code bytes} (readable part, not consumed); returns {@code null} while they are
     * within the limits, else why not (without quoting them).
     */
    String scan(ByteBuf bytes) {
        int index = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (index < end) {
            if (expect == Expect.SKIP) {
                int step = (int) Math.min(skip, end - index);
                index += step;
                skip -= step;
                if (skip == 0) {
                    expect = Expect.TYPE;
                }
                continue;
            }
            byte next = bytes.getByte(index++);
            if (expect == Expect.TYPE) {
                startElement(next);
                continue;
            }
            String refused = lineByte(next);
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    private void startElement(byte first) {
        type = first;
        expect = Expect.LINE;
        lineLength = 0;
        number = 0;
        negative = false;
        numberOk = true;
        sawCr = false;
    }

    private String lineByte(byte next) {
        if (sawCr && next == '\n') {
            return endOfLine();
        }
        sawCr = next == '\r';
        if (!sawCr) {
            if (++lineLength > maxBytes) {
                return "a line longer than " + maxBytes + " bytes";
            }
            digit(next);
        }
        return null;
    }

    private void digit(byte next) {
        if (next == '-' && lineLength == 1) {
            negative = true;
        } else if (next >= '0' && next <= '9' && number <= Long.MAX_VALUE / 10 - 1) {
            number = number * 10 + (next - '0');
        } else {
            numberOk = false;
        }
    }

    private String endOfLine() {
        expect = Expect.TYPE;
        switch (type) {
            case '$', '!', '=' -> {
                if (!numberOk || lineLength == 0) {
                    return "a bulk string of unknown length";
                }
                if (!negative) {
                    if (number > maxBytes) {
                        return "a bulk string of " + number + " bytes, over the limit of " + maxBytes;
                    }
                    skip = number + 2;
                    expect = Expect.SKIP;
                }
            }
            case '*', '%', '~', '>', '|' -> {
                if (!numberOk || lineLength == 0) {
                    return "an aggregate of unknown size";
                }
                if (!negative && number > maxElements) {
                    return "an aggregate of " + number + " elements, over the limit of " + maxElements;
                }
            }
            default -> {
                // a line type (+ - : , # _ ( ): its line was all of it
            }
        }
        return null;
    }
}
