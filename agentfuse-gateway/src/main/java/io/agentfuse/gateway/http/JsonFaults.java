package io.agentfuse.gateway.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that turns a JSON parser's complaint into words for the caller: what is wrong
 * and where, never the parser's own names. Jackson says {@code Document nesting depth (1001)
 * exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)}; the
 * caller reads {@code the JSON nests deeper than 1000 levels}. Its other complaints keep their
 * substance ({@code unexpected character ('"' (code 34)): was expecting comma to separate Object
 * entries at line 1, column 10}) without the description of the source it prints or anything it
 * quotes from its own code; its hints at switches that would allow what JSON does not ({@code enable
 * JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS to allow}) become what JSON takes instead. Stateless.
 */
public final class JsonFaults {

    private static final Pattern SOURCE_LOCATION = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]");
    private static final Pattern CODE_QUOTE = Pattern.compile(" ?\\((?:from|through) `[^`]*`\\)|`[^`]*`");
    private static final Pattern LIMIT = Pattern.compile("exceeds the maximum allowed \\((\\d+)");
    /**
     * Jackson's words for what RFC 8259 does not allow, each with its hint at a switch to allow it,
     * in words that say what JSON takes instead; and the description of the enclosing value it adds,
     * whose location the caller reads anyway. Applied in order, before the generic clean-up.
     */
    private static final List<Map.Entry<Pattern, String>> PLAIN_WORDS = List.of(
            Map.entry(Pattern.compile("maybe a \\(non-standard\\) comment\\? \\(not recognized as one since Feature '[^']*'"
                    + " not enabled for parser\\)"), "a comment, which JSON does not allow"),
            Map.entry(Pattern.compile("(?i)(non-standard token '[^']*'): enable .*? to allow"),
                    "$1 (not a JSON value: JSON numbers are finite)"),
            Map.entry(Pattern.compile("\\(''' \\(code 39\\)\\)"), "(a single quote: JSON strings and names take double quotes)"),
            Map.entry(Pattern.compile("\\(('[\\]}]') \\(code \\d+\\)\\): (?:expected a value|was expecting double-quote to start field name)"),
                    "$1 where a value or a field name is expected (JSON allows no trailing comma)"),
            Map.entry(Pattern.compile("(?i)close marker ('.'): expected '.' \\(for root starting at \\[Source: [^\\]]*\\]\\)"),
                    "$1: no object or array is open to close"),
            Map.entry(Pattern.compile(" ?\\(for (?:root|Object|Array) starting at \\[Source: [^\\]]*\\]\\)"), ""),
            Map.entry(Pattern.compile(":? ?enable `[^`]*` to allow"), ""));

    private JsonFaults() {
    }

    /** {@code failure} of a JSON parser (or what wraps one), in words a caller can act on. */
    public static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StreamConstraintsException limit) {
                return beyondLimit(limit);
            }
            if (cause instanceof JsonProcessingException parse) {
                return located(parse);
            }
        }
        return "malformed JSON";
    }

    /** A document past one of the reader's limits: which one, and the limit. */
    private static String beyondLimit(StreamConstraintsException e) {
        String said = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().toLowerCase(Locale.ROOT);
        Matcher limit = LIMIT.matcher(said);
        String max = limit.find() ? limit.group(1) : null;
        String what;
        if (said.contains("nesting depth")) {
            what = "the JSON nests deeper than " + max + " levels";
        } else if (said.contains("number value length")) {
            what = "a number in the JSON has more than " + max + " digits";
        } else if (said.contains("string value length")) {
            what = "a string in the JSON is longer than " + max + " characters";
        } else if (said.contains("name length")) {
            what = "a field name in the JSON is longer than " + max + " characters";
        } else {
            what = "the JSON is larger than the gateway reads" + (max == null ? "" : " (a limit of " + max + ")");
        }
        return at(what, e.getLocation());
    }

    private static String located(JsonProcessingException e) {
        String original = e.getOriginalMessage();
        if (original != null) {
            for (Map.Entry<Pattern, String> words : PLAIN_WORDS) {
                original = words.getKey().matcher(original).replaceAll(words.getValue());
            }
        }
        String what = original == null || original.isBlank() ? "malformed JSON"
                : CODE_QUOTE.matcher(SOURCE_LOCATION.matcher(original).replaceAll("line $1, column $2")).replaceAll("");
        what = what.isBlank() ? "malformed JSON" : Character.toLowerCase(what.charAt(0)) + what.substring(1);
        return at(what, e.getLocation());
    }

    private static String at(String what, JsonLocation location) {
        return location == null ? what : what + " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
