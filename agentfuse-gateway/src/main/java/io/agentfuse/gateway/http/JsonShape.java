package io.agentfuse.gateway.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The shape a provider's JSON answer must have, declared once as a list of fields, and read by
 * both of its checks: the tree-based one that explains what is wrong
 * ({@code dialect.AnswerShape#check}) and the one-pass scan over the bytes that only ever says yes
 * ({@link ShapeScan}). A field added here is checked by both; the property tests of the scans
 * generate their inputs from the same list.
 *
 * <p>A value is an object of {@link Field}s (fields not listed are allowed and not looked at), an
 * array of one shape, or a leaf: a string, a number, anything. A field is required (present and not
 * null) or optional (absent or null). Where the two checks differ, the scan is the stricter: it
 * gives up on what it does not read plainly and leaves it to the tree (see {@link ShapeScan}).
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * static final JsonShape.Obj USAGE = JsonShape.object(
 *         JsonShape.optional("prompt_tokens", JsonShape.Leaf.NUMBER).captured(PROMPT));
 * }</pre>
 */
public sealed interface JsonShape {

    /** Whether this shape, or one inside it, captures what the scan reads ({@link Field#captured}). */
    boolean captures();

    /** A value that is not an object or an array. */
    enum Leaf implements JsonShape {
        /** A string. The scan captures only a plain one: printable ASCII without escapes, at most {@value ShapeScan#MAX_CAPTURED_STRING} bytes. */
        STRING,
        /** A number. The scan reads only a plain whole number {@code >= 0} of at most 18 digits. */
        NUMBER,
        /** Any value at all. */
        ANY;

        @Override
        public boolean captures() {
            return false;
        }
    }

    /**
     * An object with these fields, at most 31 (the scan keeps one bit per field). Its scan finds a
     * member's field among those of the member name's length only: most lengths have none or one.
     */
    final class Obj implements JsonShape {
        private final List<Field> fields;
        private final Field[] byIndex;
        /** For each name length up to the longest, the indexes of the fields of that length. */
        private final int[][] byNameLength;
        /** One bit per required field, at its index. */
        private final int required;
        private final boolean captures;

        /** @param fields the fields looked at, in the order the tree check checks them */
        public Obj(List<Field> fields) {
            this.fields = List.copyOf(fields);
            if (this.fields.size() > 31) {
                throw new IllegalArgumentException("an object shape has at most 31 fields, but had " + this.fields.size());
            }
            byIndex = this.fields.toArray(Field[]::new);
            int longest = this.fields.stream().mapToInt(field -> field.ascii().length).max().orElse(-1);
            byNameLength = new int[longest + 1][];
            for (int length = 0; length <= longest; length++) {
                int nameLength = length;
                byNameLength[length] = IntStream.range(0, byIndex.length)
                        .filter(i -> byIndex[i].ascii().length == nameLength).toArray();
            }
            required = IntStream.range(0, byIndex.length).filter(i -> byIndex[i].required())
                    .reduce(0, (bits, i) -> bits | 1 << i);
            captures = this.fields.stream().anyMatch(field -> field.capture() >= 0 || field.shape().captures());
        }

        /** The fields looked at, in the order the tree check checks them. */
        public List<Field> fields() {
            return fields;
        }

        @Override
        public boolean captures() {
            return captures;
        }

        /** The index of the field named as the member {@code scan} reads, or -1 when none is. */
        int fieldOf(JsonScan scan) {
            int length = scan.nameLength();
            if (length >= byNameLength.length) {
                return -1;
            }
            for (int i : byNameLength[length]) {
                if (scan.nameIs(byIndex[i].ascii())) {
                    return i;
                }
            }
            return -1;
        }

        /** The field at {@code index} (see {@link #fieldOf}). */
        Field field(int index) {
            return byIndex[index];
        }

        /** Whether the fields {@code seen} (a bit per index) include every required one. */
        boolean hasRequired(int seen) {
            return (seen & required) == required;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Obj that && fields.equals(that.fields);
        }

        @Override
        public int hashCode() {
            return fields.hashCode();
        }

        @Override
        public String toString() {
            return "Obj" + fields;
        }
    }

    /**
     * An array whose elements all have one shape.
     *
     * @param element    the elements' shape
     * @param emptyMeans {@code null} when the array may be empty, else why it must not be (for the message)
     */
    record Arr(JsonShape element, String emptyMeans) implements JsonShape {

        @Override
        public boolean captures() {
            return element.captures();
        }
    }

    /**
     * One field of an object: its name, its value's shape, whether it must be present and not null,
     * the slot the scan reports its value in ({@link ShapeScan.Captures}; -1 for none: a number's
     * value, a string's or its length, an array's length), and whether the scan gives up when it is present and not
     * null, leaving it to the tree (a value it has no plain reading of, such as a provider's error).
     * Immutable.
     */
    final class Field {
        private final String name;
        private final JsonShape shape;
        private final boolean required;
        private final int capture;
        private final boolean treeOnly;
        private final boolean measured;
        private final byte[] ascii;

        private Field(String name, JsonShape shape, boolean required, int capture, boolean treeOnly, boolean measured) {
            this.name = name;
            this.shape = shape;
            this.required = required;
            this.capture = capture;
            this.treeOnly = treeOnly;
            this.measured = measured;
            this.ascii = name.getBytes(StandardCharsets.US_ASCII);
        }

        /** This field, its value reported in {@code slot}. */
        public Field captured(int slot) {
            return new Field(name, shape, required, slot, treeOnly, false);
        }

        /**
         * This string field, its length reported in {@code slot} as a count (bytes as written, 0
         * exactly when it is empty) instead of its value: any string, however long or escaped.
         */
        public Field measured(int slot) {
            if (shape != Leaf.STRING) {
                throw new IllegalArgumentException("only a string is measured, not " + this);
            }
            return new Field(name, shape, required, slot, treeOnly, true);
        }

        /** This field, left to the tree whenever it is present and not null. */
        public Field leftToTheTree() {
            return new Field(name, shape, required, capture, true, measured);
        }

        public String name() {
            return name;
        }

        public JsonShape shape() {
            return shape;
        }

        public boolean required() {
            return required;
        }

        public int capture() {
            return capture;
        }

        public boolean treeOnly() {
            return treeOnly;
        }

        /** Whether the scan reports this string's length rather than its value ({@link #measured}). */
        public boolean measured() {
            return measured;
        }

        /** The name's bytes, which the scan compares with a member's. */
        byte[] ascii() {
            return ascii;
        }

        @Override
        public String toString() {
            return (required ? "required " : "optional ") + name + ": " + shape;
        }
    }

    /** An object of {@code fields}. */
    static Obj object(Field... fields) {
        return new Obj(List.of(fields));
    }

    /** An array of elements of {@code element}'s shape, which may be empty. */
    static Arr array(JsonShape element) {
        return new Arr(element, null);
    }

    /** An array of elements of {@code element}'s shape, of at least one (else, says the message: {@code emptyMeans}). */
    static Arr nonEmptyArray(JsonShape element, String emptyMeans) {
        return new Arr(element, emptyMeans);
    }

    /** A field that must be present and not null. */
    static Field required(String name, JsonShape shape) {
        return new Field(name, shape, true, -1, false, false);
    }

    /** A field that may be absent or null. */
    static Field optional(String name, JsonShape shape) {
        return new Field(name, shape, false, -1, false, false);
    }
}
