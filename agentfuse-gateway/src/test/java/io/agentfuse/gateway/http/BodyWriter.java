package io.agentfuse.gateway.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Writes long request bodies by hand, so that they use the liberties an encoder would not. */
final class BodyWriter {

    private static final String[] PIECES = {"a", "Z", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "é", "€",
        "\\ud83d\\ude00", "😀", "\\t", "{", "]", ",", ":", "'", "0", "\\u0000"};
    private final Random random;

    BodyWriter(Random random) {
        this.random = random;
    }

    String body(int messages) {
        return body(messages(messages));
    }

    /** {@code count} messages written one after the other, in a list the caller may change. */
    List<String> messages(int count) {
        List<String> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            written.add(message());
        }
        return written;
    }

    String body(List<String> messages) {
        StringBuilder body = new StringBuilder(space()).append('{').append(space());
        List<String> fields = new ArrayList<>();
        fields.add(field("model", string(5)));
        fields.add(field("messages", space() + "[" + space() + String.join(space() + "," + space(), messages)
                + space() + "]"));
        fields.add(field("temperature", number()));
        fields.add(field("stream", random.nextBoolean() ? "true" : "false"));
        fields.add(field("tools", "[" + object(2) + "," + space() + object(2) + "]"));
        fields.add(field("metadata", random.nextBoolean() ? "null" : object(2)));
        fields.add(field("system", string(random.nextInt(200))));
        fields.add(field("empty", random.nextBoolean() ? "[]" : "{ }"));
        fields.add(field("pad", string(8200)));
        if (random.nextInt(8) == 0) {
            fields.add(field("model", string(3)));                 // a repeated top-level key
        }
        Collections.shuffle(fields, random);
        return body.append(String.join("," + space(), fields)).append(space()).append('}').append(space()).toString();
    }

    String message() {
        String content = random.nextInt(3) == 0
                ? "[" + "{\"type\":\"text\"," + space() + "\"text\":" + string(random.nextInt(400)) + "}]"
                : string(random.nextInt(300));
        String repeated = random.nextInt(20) == 0 ? ",\"role\":\"user\"" : "";
        return "{" + space() + "\"role\"" + space() + ":" + space() + "\"user\"" + repeated + "," + space()
                + "\"content\":" + space() + content + "," + "\"n\":" + number() + space() + "}";
    }

    private String field(String name, String value) {
        return "\"" + name + "\"" + space() + ":" + space() + value;
    }

    private String object(int depth) {
        if (depth == 0) {
            return string(random.nextInt(20));
        }
        return "{\"a\":" + object(depth - 1) + ",\"b\":[" + number() + "," + space() + object(depth - 1)
                + "],\"c\":" + string(random.nextInt(90)) + "}";
    }

    private String string(int pieces) {
        StringBuilder text = new StringBuilder("\"");
        for (int i = 0; i < pieces; i++) {
            String piece = PIECES[random.nextInt(PIECES.length)];
            text.append(piece.equals("{") || piece.equals("]") || piece.equals(",") || piece.equals(":")
                    ? piece : piece.repeat(1 + random.nextInt(3)));
        }
        return text.append('"').toString();
    }

    private String number() {
        return switch (random.nextInt(6)) {
            case 0 -> Integer.toString(random.nextInt());
            case 1 -> "-0.5e-3";
            case 2 -> "1E2";
            case 3 -> "12345678901234567890";
            case 4 -> "0";
            default -> Double.toString(random.nextDouble());
        };
    }

    private String space() {
        return switch (random.nextInt(6)) {
            case 0 -> " ";
            case 1 -> "\n\t ";
            case 2 -> "\r\n";
            default -> "";
        };
    }
}
