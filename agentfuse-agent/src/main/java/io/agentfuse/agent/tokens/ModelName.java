package io.agentfuse.agent.tokens;

import java.util.List;
import java.util.Locale;

/**
 * A model's name as its vendor calls it, whatever the route that named it: the one place that reads
 * a model's family and generation out of its name, for the token encoding ({@link OpenAiEncodings}),
 * the image accounting ({@link ImageAccounting}) and a dialect that writes a request by generation
 * (Gemini before 3 takes no media in a function response).
 *
 * <p>The vendor's name is what is left after the last {@code /} (a router's {@code openai/},
 * Gemini's {@code models/}, a Vertex AI or Bedrock resource path), in lower case, without Bedrock's
 * region and vendor prefixes ({@code us.anthropic.claude-sonnet-4-20250514-v1:0} is
 * {@code claude-sonnet-4-20250514-v1:0}). Immutable and thread-safe.
 *
 * <pre>{@code
 * ModelName.of("global.anthropic.claude-sonnet-4-5-20250929-v1:0").isClaude();  // true
 * ModelName.of("models/gemini-2.5-pro").isGeminiBefore3();                       // true
 * ModelName.of("gpt-4.1-mini-2025-04-14").isOf("gpt-4.1-mini");                  // true
 * ModelName.of("us.anthropic.claude-opus-4-6-v1:0").vendorName();               // "claude-opus-4-6"
 * }</pre>
 */
public final class ModelName {

    /** Bedrock's vendor prefixes of the vendors whose models are known by name, after an optional region ({@code us.}). */
    private static final List<String> BEDROCK_VENDORS = List.of("anthropic.", "openai.", "google.", "amazon.");

    /** {@link #claudeVersion()} of a Claude model of a generation before 4. */
    public static final int BEFORE_4 = 0;
    /** {@link #claudeVersion()} of a model that is not Claude, or whose version cannot be read. */
    public static final int UNREAD = -1;

    private final String name;

    private ModelName(String name) {
        this.name = name;
    }

    /** The vendor's name in {@code model}, a configured {@code upstreamModel} or a caller's model. */
    public static ModelName of(String model) {
        String name = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return new ModelName(name.substring(bedrockPrefix(name)));
    }

    // The length of a "[region.]vendor." prefix, or 0: a gateway asks on every request, so no regex.
    private static int bedrockPrefix(String name) {
        int dot = name.indexOf('.');
        for (int from : new int[] {0, dot + 1}) {
            for (String vendor : BEDROCK_VENDORS) {
                if (dot >= 0 && name.startsWith(vendor, from) && (from == 0 || isRegion(name, dot))) {
                    return from + vendor.length();
                }
            }
        }
        return 0;
    }

    private static boolean isRegion(String name, int end) {
        for (int i = 0; i < end; i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c == '-')) {
                return false;
            }
        }
        return end > 0;
    }

    /** The vendor's name, in lower case. */
    public String name() {
        return name;
    }

    /**
     * The vendor's name without what a cloud adds to it for a version of its own: Bedrock's
     * {@code -v1:0} ({@code claude-sonnet-4-5-20250929-v1:0} is {@code claude-sonnet-4-5-20250929}) and
     * Vertex AI's {@code @} and snapshot date ({@code claude-sonnet-4-5@20250929} is
     * {@code claude-sonnet-4-5}): the name the vendor's own table of windows and prices knows.
     */
    public String vendorName() {
        int at = name.indexOf('@');
        if (at > 0) {
            return name.substring(0, at);
        }
        int v = name.lastIndexOf("-v");
        int end = v < 0 ? -1 : digitsEnd(v + 2);
        if (end > v + 2 && (end == name.length() || name.charAt(end) == ':' && digitsEnd(end + 1) == name.length())) {
            return name.substring(0, v);
        }
        return name;
    }

    private int digitsEnd(int from) {
        int end = from;
        while (end < name.length() && Character.isDigit(name.charAt(end))) {
            end++;
        }
        return end;
    }

    /** Whether this is one of Anthropic's Claude models, on whichever platform. */
    public boolean isClaude() {
        return name.startsWith("claude-");
    }

    /**
     * Whether this is a Claude model that counts text with the tokenizer Anthropic introduced with
     * Claude Opus 4.7, which "may use roughly 1× to 1.35× as many tokens when processing text compared
     * to previous models" (Anthropic's Opus 4.7 release notes and migration guide): every Claude model
     * but those named before it — {@code claude-instant}, {@code claude-2.x}, {@code claude-3*}, and
     * Opus, Sonnet and Haiku 4 to 4.6, with or without a snapshot ({@code claude-sonnet-4-5-20250929},
     * {@code claude-sonnet-4-5@20250929}, Bedrock's {@code -v1:0}). Anthropic's Sonnet 5 migration guide
     * says the same of Sonnet 5 ("about 30% more tokens" than Sonnet 4.6 for the same text); the other
     * later models (Opus 4.8, the Claude 5 models) are taken to share it, as offline counters that
     * reproduce Anthropic's counts report of Opus 4.7 to 4.9 and Opus 5; a Claude model the rule does
     * not know is too, since counting high only compacts a little early where counting low lets a
     * request overflow the provider's window.
     */
    public boolean hasClaudeTokenizerOf47() {
        int version = claudeVersion();
        return isClaude() && (version == UNREAD || version >= 407);
    }

    /**
     * A Claude model's version as major × 100 + minor, read from the numbers after its tier
     * ({@code claude-opus-4-7} is 407, {@code claude-sonnet-5} 500, {@code claude-sonnet-4-20250514} 400:
     * a date is no minor); {@value #BEFORE_4} for the generations before 4, named the old way
     * ({@code claude-instant-1.2}, {@code claude-2.1}, {@code claude-3-5-sonnet}); {@value #UNREAD} when
     * this is not Claude or its version cannot be read. No regex: a gateway asks on every request.
     */
    public int claudeVersion() {
        if (!isClaude()) {
            return UNREAD;
        }
        if (name.startsWith("claude-instant") || name.length() > 7 && Character.isDigit(name.charAt(7))) {
            return BEFORE_4;
        }
        int tierEnd = name.indexOf('-', 7);
        int major = tierEnd < 0 ? -1 : versionAt(tierEnd + 1);
        if (major < 0) {
            return UNREAD;
        }
        int majorEnd = tierEnd + 1 + (major > 9 ? 2 : 1);
        int minor = majorEnd < name.length() && name.charAt(majorEnd) == '-' ? Math.max(versionAt(majorEnd + 1), 0) : 0;
        return major * 100 + minor;
    }

    /**
     * The one- or two-digit version number at {@code from}, ended by the name's end, a {@code -} or
     * Vertex's {@code @}; -1 for anything else (a date, Bedrock's {@code v1:0}, a word). No regex: a
     * gateway asks on every request.
     */
    private int versionAt(int from) {
        int end = from;
        while (end < name.length() && end - from < 3 && Character.isDigit(name.charAt(end))) {
            end++;
        }
        boolean ended = end == name.length() || name.charAt(end) == '-' || name.charAt(end) == '@';
        return end > from && end - from <= 2 && ended ? Integer.parseInt(name, from, end, 10) : -1;
    }

    /** Whether this is one of Amazon's Nova models ({@code amazon.nova-pro-v1:0} on Bedrock). */
    public boolean isNova() {
        return name.startsWith("nova-");
    }

    /** Whether this is one of Google's Gemini models. */
    public boolean isGemini() {
        return name.startsWith("gemini-");
    }

    /** Whether this is a Gemini model of a generation before 3 ({@code gemini-1.x}, {@code gemini-2.x}, {@code gemini-pro}). */
    public boolean isGeminiBefore3() {
        return name.startsWith("gemini-1.") || name.startsWith("gemini-2.") || name.startsWith("gemini-pro");
    }

    /**
     * Whether this is {@code family} itself or a snapshot or variant of it: the family's name followed
     * by the end or a {@code -} ({@code gpt-4o-2024-08-06} is of {@code gpt-4o}; {@code gpt-4o-mini}
     * is of it too, so ask for the longer family first; {@code gpt-5.1} is not of {@code gpt-5}).
     */
    public boolean isOf(String family) {
        return name.startsWith(family) && (name.length() == family.length() || name.charAt(family.length()) == '-');
    }

    /**
     * Whether this starts with {@code family} not followed by a digit, the looser test of an
     * encoding's family ({@code o1} takes {@code o1-mini} and {@code o1.5}, not {@code o10}).
     */
    boolean continues(String family) {
        return name.startsWith(family) && (name.length() == family.length() || !Character.isDigit(name.charAt(family.length())));
    }

    @Override
    public String toString() {
        return name;
    }
}
