package io.agentfuse.gateway.http;

import java.util.Arrays;

/**
 * The leading members of the last object {@link JsonScan#object(JsonScan.Member, ScanPrefix) read}
 * with it, up to the first whose reader kept more than what it noted ({@link JsonScan#keepsState()}):
 * a body that starts with the same bytes is read on from there, with the same notes, instead of from
 * its start. A stream's events repeat their id, model and the like before what changes; a body that
 * differs anywhere in the remembered bytes is read whole, and its own leading members are
 * remembered instead.
 *
 * <p>Sound because a reading depends on nothing but the bytes and the notes: the same bytes
 * read with the same notes say the same, and a reader that keeps anything else says so.
 *
 * <p>Not thread-safe: one per stream.
 */
public final class ScanPrefix {

    private byte[] bytes = new byte[0];
    private int noted;

    /** The notes of the remembered members. */
    int noted() {
        return noted;
    }

    /** How many leading bytes are remembered; 0 for none. */
    public int length() {
        return bytes.length;
    }

    /** Whether {@code body} starts with the remembered bytes (and some are). */
    public boolean isPrefixOf(byte[] body) {
        return startsWith(body, 0, body.length);
    }

    boolean startsWith(byte[] body, int at, int end) {
        int length = bytes.length;
        return length > 0 && end - at >= length && Arrays.equals(body, at, at + length, bytes, 0, length);
    }

    void remember(byte[] body, int from, int to, int notedThere) {
        bytes = Arrays.copyOfRange(body, from, to);
        noted = notedThere;
    }
}
