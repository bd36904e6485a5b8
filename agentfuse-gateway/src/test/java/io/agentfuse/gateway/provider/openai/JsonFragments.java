package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.http.JsonShape;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * JSON text built from fragments for the property tests of the scans, which must only ever say
 * yes: mostly well formed, each part now and then absent, given twice, of another kind, named
 * with an escape, or cut short, and now and then with a stray byte put in anywhere. The text of an
 * answer is generated from the field list both of its checks read ({@link #of(JsonShape)}), so a
 * field added to the list is generated too.
 */
final class JsonFragments {

    private JsonFragments() {
    }

    /**
     * Text of {@code shape}: each listed field mostly present with a value of its kind, now and then
     * null, absent, given twice, named with an escape or of another kind (a field left to the tree
     * rarely present), and now and then a field the shape does not list.
     */
    static Arbitrary<String> of(JsonShape shape) {
        if (shape instanceof JsonShape.Obj object) {
            List<Arbitrary<String>> fields = new ArrayList<>();
            for (JsonShape.Field field : object.fields()) {
                Arbitrary<String> value = mostly(of(field.shape()));
                if (!field.required()) {
                    value = Arbitraries.frequencyOf(Tuple.of(8, value), Tuple.of(1, Arbitraries.just("null")));
                }
                fields.add(field.treeOnly() ? rarely(field(field.name(), value)) : field(field.name(), value));
            }
            fields.add(rarely(field("unlisted", anyValue())));
            return Combinators.combine(fields)
                    .as(parts -> "{" + parts.stream().filter(part -> !part.isEmpty()).collect(Collectors.joining(",")) + "}");
        }
        if (shape instanceof JsonShape.Arr array) {
            return array(of(array.element()));
        }
        return switch ((JsonShape.Leaf) shape) {
            case STRING -> Arbitraries.of("\"text\"", "\"stop\"", "\"length\"", "\"tool_calls\"", "\"\\u00e9\\n\"", "\"é 中文\"");
            case NUMBER -> Arbitraries.of("0", "7", "12345", "4294967296");
            case ANY -> anyValue();
        };
    }

    /** {@code json} as bytes, now and then cut short or with one byte replaced by any other. */
    static Arbitrary<byte[]> damaged(Arbitrary<String> json) {
        Arbitrary<String> shortened = Combinators.combine(json, Arbitraries.integers().between(0, 99),
                Arbitraries.integers().between(0, 7))
                .as((text, cut, whether) -> whether == 0 ? text.substring(0, text.length() * cut / 100) : text);
        return Combinators.combine(shortened, Arbitraries.integers().between(-1600, 400), Arbitraries.integers().between(0, 255))
                .as((text, at, stray) -> {
                    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                    if (at >= 0 && at < bytes.length) {
                        bytes[at] = (byte) (int) stray;
                    }
                    return bytes;
                });
    }

    /** {@code valid}, now and then any other value. */
    static Arbitrary<String> mostly(Arbitrary<String> valid) {
        return Arbitraries.frequencyOf(Tuple.of(40, valid), Tuple.of(1, anyValue()));
    }

    /** A field that is usually absent. */
    static Arbitrary<String> rarely(Arbitrary<String> field) {
        return Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just("")), Tuple.of(1, field));
    }

    /** {@code "name": value}, now and then absent (empty), given twice, or named with an escape. */
    static Arbitrary<String> field(String name, Arbitrary<String> value) {
        return Arbitraries.frequencyOf(
                Tuple.of(60, value.map(v -> quote(name) + ":" + v)),
                Tuple.of(1, value.map(v -> "\"\\u00" + Integer.toHexString(name.charAt(0)) + name.substring(1) + "\":" + v)),
                Tuple.of(1, Arbitraries.just("")),
                Tuple.of(1, Combinators.combine(value, value).as((a, b) -> quote(name) + ":" + a + "," + quote(name) + ":" + b)));
    }

    /** An object of the fields that are present. */
    @SafeVarargs
    static Arbitrary<String> object(Arbitrary<String>... fields) {
        return Combinators.combine(List.of(fields))
                .as(parts -> "{" + parts.stream().filter(part -> !part.isEmpty()).collect(Collectors.joining(",")) + "}");
    }

    /** An array of one or two elements, now and then empty. */
    static Arbitrary<String> array(Arbitrary<String> element) {
        return Arbitraries.frequencyOf(Tuple.of(6, element.list().ofMinSize(1).ofMaxSize(2)), Tuple.of(1, Arbitraries.just(List.<String>of())))
                .map(elements -> "[" + String.join(",", elements) + "]");
    }

    /** Values of every kind, some that the parser refuses. */
    static Arbitrary<String> anyValue() {
        return Arbitraries.of("null", "\"text\"", "\"\\u00e9\\n\"", "0", "7", "-3", "2.5", "1e3", "true", "[]", "{}",
                "[1,\"a\",null]", "{\"a\":{\"b\":[]}}", "99999999999999999999", "\"\\ud800\"", "/* c */ 1",
                "\"é 中文\"", "01", "-0", "[1,]", "\"\\q\"", " { \"k\" : [ 1 , 2 ] } ");
    }

    private static String quote(String name) {
        return "\"" + name + "\"";
    }
}
