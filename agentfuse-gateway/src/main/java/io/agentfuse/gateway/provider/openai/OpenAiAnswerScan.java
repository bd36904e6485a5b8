package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.http.JsonScan;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

import static io.agentfuse.gateway.http.JsonScan.noteOnce;

/**
 * The fast path of {@link OpenAiResponseCodec#check}: one pass over a {@code chat.completion}
 * body's bytes ({@link JsonScan}) that checks the same shape and reads the usage without building
 * the tree or even a parser (for a small answer the tree cost as much as the rest of the
 * gateway's bookkeeping, a Jackson parser a tenth of a request). It only ever says yes: anything
 * it does not recognise as plainly well formed — a syntax error, a field of the wrong type, a key
 * given twice, a fraction, a token count that is null or negative — makes it give up, and the
 * tree-based check decides and explains. So whatever it accepts, the check accepts too, with the
 * same usage.
 *
 * <p>Thread-safe: a scan is made per body.
 */
final class OpenAiAnswerScan {

    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] ID = ascii("id");
    private static final byte[] MODEL = ascii("model");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] FINISH_REASON = ascii("finish_reason");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] CONTENT = ascii("content");
    private static final byte[] REFUSAL = ascii("refusal");
    private static final byte[] TOOL_CALLS = ascii("tool_calls");
    private static final byte[] FUNCTION = ascii("function");
    private static final byte[] NAME = ascii("name");
    private static final byte[] ARGUMENTS = ascii("arguments");

    private final OpenAiUsageScan usage = new OpenAiUsageScan();

    private OpenAiAnswerScan() {
    }

    /** The usage of {@code body} if it is plainly a well-formed answer; {@code null}: ask the tree-based check. */
    static Usage usageIfWellFormed(Buffer body) {
        JsonScan scan = JsonScan.of(body);
        if (scan == null) {
            return null;
        }
        OpenAiAnswerScan answer = new OpenAiAnswerScan();
        int seen = scan.object(answer::answerMember);
        if (seen < 0 || (seen & 1) == 0 || !scan.atEnd()) {
            return null;
        }
        return answer.usage.usage();
    }

    private int answerMember(JsonScan scan, int seen) {
        if (scan.nameIs(CHOICES)) {
            return scan.array(OpenAiAnswerScan::choice) > 0 ? noteOnce(seen, 1) : -1;
        }
        int text = scan.nameIs(ID) ? 2 : scan.nameIs(MODEL) ? 4 : 0;
        if (text != 0) {
            return scan.stringOrNull() ? noteOnce(seen, text) : -1;
        }
        if (scan.nameIs(USAGE)) {
            return scan.takeNull() || usage.read(scan) ? noteOnce(seen, 8) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static boolean choice(JsonScan scan) {
        int seen = scan.object(OpenAiAnswerScan::choiceMember);
        return seen >= 0 && (seen & 2) != 0;
    }

    private static int choiceMember(JsonScan scan, int seen) {
        if (scan.nameIs(FINISH_REASON)) {
            return scan.stringOrNull() ? noteOnce(seen, 1) : -1;
        }
        if (scan.nameIs(MESSAGE)) {
            return scan.object(OpenAiAnswerScan::messageMember) >= 0 ? noteOnce(seen, 2) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static int messageMember(JsonScan scan, int seen) {
        int text = scan.nameIs(CONTENT) ? 1 : scan.nameIs(REFUSAL) ? 2 : 0;
        if (text != 0) {
            return scan.stringOrNull() ? noteOnce(seen, text) : -1;
        }
        if (scan.nameIs(TOOL_CALLS)) {
            return scan.takeNull() || scan.array(OpenAiAnswerScan::toolCall) >= 0 ? noteOnce(seen, 4) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static boolean toolCall(JsonScan scan) {
        int seen = scan.object(OpenAiAnswerScan::toolCallMember);
        return seen >= 0 && (seen & 1) != 0;
    }

    private static int toolCallMember(JsonScan scan, int seen) {
        if (scan.nameIs(FUNCTION)) {
            int function = scan.object(OpenAiAnswerScan::functionMember);
            return function >= 0 && (function & 1) != 0 ? noteOnce(seen, 1) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static int functionMember(JsonScan scan, int seen) {
        if (scan.nameIs(NAME)) {
            return scan.string() ? noteOnce(seen, 1) : -1;
        }
        if (scan.nameIs(ARGUMENTS)) {
            return scan.stringOrNull() ? noteOnce(seen, 2) : -1;
        }
        return scan.skipValue() ? seen : -1;
    }

    private static byte[] ascii(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }
}
