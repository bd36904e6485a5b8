package io.agentfuse.gateway.provider.openai;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.agentfuse.gateway.dialect.Usage;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.jackson.JacksonCodec;

import java.io.IOException;

/**
 * The fast path of {@link OpenAiResponseCodec#check}: one pass over a {@code chat.completion} body
 * with the parser Vert.x's JSON uses, which checks the same shape and reads the usage without
 * building the tree (for a small answer the tree cost as much as the rest of the gateway's
 * bookkeeping). It only ever says yes: anything it does not recognise as plainly well formed —
 * a syntax error, a field of the wrong type, a key given twice, a fraction, a token count that
 * is null or negative — makes it give up, and the tree-based check decides and explains. So
 * whatever it accepts, the check accepts too, with the same usage.
 *
 * <p>Every value is decoded as the tree would decode it (strings and numbers too), so that input
 * the tree refuses is refused here as well. Stateless and thread-safe.
 */
final class OpenAiAnswerScan {

    private long promptTokens;
    private long completionTokens;

    private OpenAiAnswerScan() {
    }

    /** The usage of {@code body} if it is plainly a well-formed answer; {@code null}: ask the tree-based check. */
    static Usage usageIfWellFormed(Buffer body) {
        if (body == null || body.length() == 0) {
            return null;
        }
        OpenAiAnswerScan scan = new OpenAiAnswerScan();
        try (JsonParser parser = JacksonCodec.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT || !scan.answer(parser) || parser.nextToken() != null) {
                return null;
            }
        } catch (IOException | RuntimeException unclear) {
            return null;
        }
        return Usage.of(scan.promptTokens, scan.completionTokens);
    }

    private boolean answer(JsonParser parser) throws IOException {
        int seen = 0;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            int field = switch (name) {
                case "choices" -> 1;
                case "id" -> 2;
                case "model" -> 4;
                case "usage" -> 8;
                default -> 0;
            };
            if ((seen & field) != 0) {
                return false; // given twice: the tree keeps the last one
            }
            seen |= field;
            boolean plain = switch (field) {
                case 1 -> token == JsonToken.START_ARRAY && choices(parser);
                case 2, 4 -> optionalString(parser, token);
                case 8 -> token == JsonToken.VALUE_NULL || token == JsonToken.START_OBJECT && usage(parser);
                default -> value(parser, token);
            };
            if (!plain) {
                return false;
            }
        }
        return (seen & 1) != 0 && parser.currentToken() == JsonToken.END_OBJECT;
    }

    private static boolean choices(JsonParser parser) throws IOException {
        int count = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token != JsonToken.START_OBJECT || !choice(parser)) {
                return false;
            }
            count++;
        }
        return count > 0;
    }

    private static boolean choice(JsonParser parser) throws IOException {
        int seen = 0;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            int field = switch (name) {
                case "finish_reason" -> 1;
                case "message" -> 2;
                default -> 0;
            };
            if ((seen & field) != 0) {
                return false;
            }
            seen |= field;
            boolean plain = switch (field) {
                case 1 -> optionalString(parser, token);
                case 2 -> token == JsonToken.START_OBJECT && message(parser);
                default -> value(parser, token);
            };
            if (!plain) {
                return false;
            }
        }
        return (seen & 2) != 0;
    }

    private static boolean message(JsonParser parser) throws IOException {
        int seen = 0;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            int field = switch (name) {
                case "content" -> 1;
                case "refusal" -> 2;
                case "tool_calls" -> 4;
                default -> 0;
            };
            if ((seen & field) != 0) {
                return false;
            }
            seen |= field;
            boolean plain = switch (field) {
                case 1, 2 -> optionalString(parser, token);
                case 4 -> token == JsonToken.VALUE_NULL || token == JsonToken.START_ARRAY && toolCalls(parser);
                default -> value(parser, token);
            };
            if (!plain) {
                return false;
            }
        }
        return true;
    }

    private static boolean toolCalls(JsonParser parser) throws IOException {
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token != JsonToken.START_OBJECT || !toolCall(parser)) {
                return false;
            }
        }
        return true;
    }

    private static boolean toolCall(JsonParser parser) throws IOException {
        boolean function = false;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            if (name.equals("function")) {
                if (function || token != JsonToken.START_OBJECT || !function(parser)) {
                    return false;
                }
                function = true;
            } else if (!value(parser, token)) {
                return false;
            }
        }
        return function;
    }

    private static boolean function(JsonParser parser) throws IOException {
        int seen = 0;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            int field = switch (name) {
                case "name" -> 1;
                case "arguments" -> 2;
                default -> 0;
            };
            if ((seen & field) != 0) {
                return false;
            }
            seen |= field;
            boolean plain = switch (field) {
                case 1 -> token == JsonToken.VALUE_STRING && optionalString(parser, token);
                case 2 -> optionalString(parser, token);
                default -> value(parser, token);
            };
            if (!plain) {
                return false;
            }
        }
        return (seen & 1) != 0;
    }

    private boolean usage(JsonParser parser) throws IOException {
        int seen = 0;
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
            JsonToken token = parser.nextToken();
            int field = switch (name) {
                case "prompt_tokens" -> 1;
                case "completion_tokens" -> 2;
                default -> 0;
            };
            if ((seen & field) != 0) {
                return false;
            }
            seen |= field;
            if (field == 0) {
                if (!value(parser, token)) {
                    return false;
                }
                continue;
            }
            long count = tokenCount(parser, token);
            if (count < 0) {
                return false;
            }
            if (field == 1) {
                promptTokens = count;
            } else {
                completionTokens = count;
            }
        }
        return true;
    }

    /** A whole, non-negative count that fits a long; -1 for anything else. */
    private static long tokenCount(JsonParser parser, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            return -1;
        }
        JsonParser.NumberType type = parser.getNumberType();
        if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
            return -1;
        }
        return Math.max(-1, parser.getLongValue());
    }

    /** A string (decoded, as the tree would) or null. */
    private static boolean optionalString(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            parser.getTextLength();
            return true;
        }
        return token == JsonToken.VALUE_NULL;
    }

    /** Walks any value, decoding its strings and numbers as the tree would; fractions are left to the tree. */
    private static boolean value(JsonParser parser, JsonToken token) throws IOException {
        if (token == null) {
            return false;
        }
        switch (token) {
            case START_OBJECT -> {
                for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                    if (!value(parser, parser.nextToken())) {
                        return false;
                    }
                }
                return parser.currentToken() == JsonToken.END_OBJECT;
            }
            case START_ARRAY -> {
                for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
                    if (!value(parser, element)) {
                        return false;
                    }
                }
                return true;
            }
            case VALUE_STRING -> {
                parser.getTextLength();
                return true;
            }
            case VALUE_NUMBER_INT -> {
                parser.getNumberValue();
                return true;
            }
            case VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> {
                return true;
            }
            default -> {
                return false;
            }
        }
    }
}
