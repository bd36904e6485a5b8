package io.agentfuse.gateway.http;

/**
 * Checks in one pass over a body's bytes ({@link JsonScan}) that it has a {@link JsonShape}, without
 * building its tree, and reports what the shape's fields capture as it goes: the fast path of a
 * dialect's answer check, reading the same field list as the tree-based check. Like the scan, it
 * only ever says yes: a field of the wrong kind, a required one absent, a field given twice, a
 * number that is not a plain whole number {@code >= 0}, a captured string that is not plain ASCII, a
 * field left to the tree that is present, anything not plainly well formed makes it answer
 * {@code false}, and the caller asks the tree-based check, which decides and explains. So whatever
 * it accepts, the tree-based check of the same shape accepts, with the same captured values.
 *
 * <p>Not thread-safe: one per body.
 *
 * <pre>{@code
 * long[] counts = new long[2];
 * boolean plain = ShapeScan.matches(JsonScan.of(body), ANSWER, (slot, value) -> counts[slot] = value);
 * }</pre>
 */
public final class ShapeScan {

    /** The longest string the scan captures, in bytes; a longer one is left to the tree. */
    public static final int MAX_CAPTURED_STRING = 64;

    /** What a scan reports as it reads, in the order of the body's bytes. */
    @FunctionalInterface
    public interface Captures {
        /** A captured number field's value, a captured array's length, or a measured string's. */
        void count(int slot, long value);

        /** A captured string field's value. */
        default void string(int slot, String value) {
        }

        /** An object of {@code shape} begins (an element of an array, say). */
        default void objectStart(JsonShape.Obj shape) {
        }

        /** An object of {@code shape}, begun before, was read whole and has the shape. */
        default void objectEnd(JsonShape.Obj shape) {
        }
    }

    private final Captures captures;

    private ShapeScan(Captures captures) {
        this.captures = captures;
    }

    /**
     * Whether the body {@code scan} reads (from its start) is an object of {@code shape} and nothing
     * after it; {@code false} also for a {@code null} scan (no body).
     */
    public static boolean matches(JsonScan scan, JsonShape.Obj shape, Captures captures) {
        return scan != null && new ShapeScan(captures).object(scan, shape) && scan.atEnd();
    }

    /**
     * {@link #matches(JsonScan, JsonShape.Obj, Captures)}, read on after the leading members
     * {@code leading} remembers when the body starts with them (see {@link ScanPrefix}): the
     * members of a field that captures anything end what is remembered.
     */
    public static boolean matches(JsonScan scan, JsonShape.Obj shape, Captures captures, ScanPrefix leading) {
        if (scan == null) {
            return false;
        }
        ShapeScan reading = new ShapeScan(captures);
        captures.objectStart(shape);
        int seen = scan.object((member, noted) -> reading.member(member, noted, shape, true), leading);
        if (!hasRequired(seen, shape) || !scan.atEnd()) {
            return false;
        }
        captures.objectEnd(shape);
        return true;
    }

    private boolean object(JsonScan scan, JsonShape.Obj shape) {
        captures.objectStart(shape);
        int seen = scan.object((member, noted) -> member(member, noted, shape, false));
        if (!hasRequired(seen, shape)) {
            return false;
        }
        captures.objectEnd(shape);
        return true;
    }

    private int member(JsonScan scan, int seen, JsonShape.Obj shape, boolean outermost) {
        int index = shape.fieldOf(scan);
        if (index < 0) {
            return scan.skipValue() ? seen : -1;
        }
        JsonShape.Field field = shape.field(index);
        if (outermost && (field.capture() >= 0 || field.shape().captures())) {
            scan.keepsState();
        }
        int noted = JsonScan.noteOnce(seen, 1 << index);
        return noted >= 0 && field(scan, field) ? noted : -1;
    }

    private boolean field(JsonScan scan, JsonShape.Field field) {
        if (field.treeOnly()) {
            return scan.takeNull();
        }
        if (!field.required() && scan.takeNull()) {
            return true;
        }
        return field.measured() ? captured(field.capture(), scan.stringLength()) : value(scan, field.shape(), field.capture());
    }

    /** A value of {@code shape} here, not null; captured in {@code slot} unless it is -1. */
    private boolean value(JsonScan scan, JsonShape shape, int slot) {
        if (shape instanceof JsonShape.Obj object) {
            return object(scan, object);
        }
        if (shape instanceof JsonShape.Arr array) {
            int length = scan.array(element -> value(element, array.element(), -1));
            return length >= 0 && (length > 0 || array.emptyMeans() == null) && captured(slot, length);
        }
        return switch ((JsonShape.Leaf) shape) {
            case STRING -> slot < 0 ? scan.stringLength() >= 0 : capturedString(scan, slot);
            case NUMBER -> captured(slot, scan.count());
            case ANY -> scan.skipValue();
        };
    }

    private boolean captured(int slot, long count) {
        if (count < 0) {
            return false;
        }
        if (slot >= 0) {
            captures.count(slot, count);
        }
        return true;
    }

    private boolean capturedString(JsonScan scan, int slot) {
        String plain = scan.plainString(MAX_CAPTURED_STRING);
        if (plain == null) {
            return false;
        }
        captures.string(slot, plain);
        return true;
    }

    private static boolean hasRequired(int seen, JsonShape.Obj shape) {
        return seen >= 0 && shape.hasRequired(seen);
    }
}
