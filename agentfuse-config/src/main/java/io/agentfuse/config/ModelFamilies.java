package io.agentfuse.config;

import io.agentfuse.agent.tokens.ModelName;
import io.agentfuse.core.budget.ModelPrice;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Models that need no entry under {@code models:}: the families of the built-in providers, the
 * context windows their vendors publish and their list prices. The one table of published context
 * windows and of prices.
 *
 * <p>A name of a family ({@code claude-*} → {@code anthropic}; {@code gpt-*}, {@code o1*},
 * {@code o3*}, {@code o4*}, {@code chatgpt-*} → {@code openai}; {@code gemini-*} → {@code gemini}) that the configuration names as a
 * fallback or {@code compactModel} without configuring it is routed to that provider with its
 * published window and the {@code default} breaker, under the name the vendor serves it by
 * ({@link #servedNameOf}: {@code claude-haiku-4}, the default {@code compactModel}, is no model of
 * Anthropic's and goes upstream as {@code claude-haiku-4-5}). The window is that of the longest entry of the
 * built-in table ({@link PublishedModels}, which names its sources) the name starts with, followed by the end or a {@code -} ({@code gpt-4o-2024-08-06}
 * is {@code gpt-4o}, {@code gpt-4-0613} is {@code gpt-4}); a family name without an entry gets its
 * family's window. Prices ({@link #priceOf}), in USD per million tokens read and written, as the
 * vendors list them (without batch or cache discounts), are looked up more strictly: only a name in
 * the table ({@link #isKnown}: an entry or a snapshot of one) has its entry's price. A longer name is
 * another model, often a far dearer one ({@code gpt-5.5-pro} is 6× {@code gpt-5.5}, {@code o1-pro}
 * 10× {@code o1}), so it takes no price from its base: a configured model the table has no price for
 * is priced by {@code models.<m>.price} (a cost budget refuses the configuration without it), and a
 * family model served without an entry is counted at {@link #unpricedPriceOf}. Windows keep the
 * looser rule, since a variant shares its base's window ({@code gpt-5.5-pro} reads what
 * {@code gpt-5.5} reads) and a window taken too small compacts or refuses what the provider would
 * take, where a price taken too small lets a budget be spent several times over. The table of windows is also what a
 * configuration's family names are checked against: one or two edits away from a model it knows, a
 * name it does not know is taken for a typo ({@link #isKnown}, {@link #knownModels}). A name longer
 * than {@value #LONGEST_NAME} chars, or with a char that is not visible ASCII (a space, a control
 * char, a letter outside ASCII), belongs to no family. Immutable and thread-safe.
 *
 * <pre>{@code
 * ModelFamilies.providerOf("claude-haiku-4-5");     // Optional[anthropic]
 * ModelFamilies.contextWindowOf("gpt-4o-mini");     // 128000
 * ModelFamilies.providerOf("gemini-2.5-pro");      // Optional[gemini]
 * ModelFamilies.providerOf("llama-3.1-70b");        // Optional.empty
 * ModelFamilies.priceOf("claude-sonnet-4-5");       // $3/$15; cache read $0.30, write $3.75, 1-hour write $6
 * ModelFamilies.contextWindowOf("claude-sonnet-5"); // 1000000
 * ModelFamilies.contextWindowOf("claude-sonnet-9"); // 1000000 (the family's)
 * ModelFamilies.priceOf("gpt-5.5-2026-04-23");      // $5/$30, cached input $0.50 (a snapshot)
 * ModelFamilies.priceOf("gpt-5.5-pro");             // $30/$180 (its own), no cached input price
 * ModelFamilies.priceOf("gpt-5.9-pro");             // Optional.empty: not gpt-5.9's, which is not listed either
 * ModelFamilies.unpricedPriceOf("gpt-5.9-pro");     // ModelPrice[input=150, output=600] (o1-pro's)
 * ModelFamilies.servedNameOf("claude-haiku-4");     // claude-haiku-4-5 (Anthropic has no claude-haiku-4)
 * ModelFamilies.servedNameOf("gpt-4o-mini");        // gpt-4o-mini
 * }</pre>
 */
public final class ModelFamilies {

    private static final String ANTHROPIC = "anthropic";
    private static final String OPENAI = "openai";
    private static final String GEMINI = "gemini";

    /**
     * The longest name, in chars, that belongs to a family. Vendors' names, snapshot dates included,
     * stay under a hundred; a family model without an entry is named in every answer's
     * {@code x-agentfuse-model}, by its breaker and by its meters, so that a client's invented name of
     * a megabyte would bloat them all (and break the client's reading of the answer's head).
     */
    public static final int LONGEST_NAME = 256;

    /**
     * The families and the window of a name of one that the table does not know. A new model of a
     * family is more likely to have its newest siblings' window than its oldest's: every Claude model
     * Anthropic lists as current since Claude 4.6 reads 1 000 000 tokens (only Haiku 4.5 and older read
     * 200 000, and they are in the table), every GPT since GPT-5.4 1 050 000. A window too small
     * compacts or refuses what the provider would take; one too large lets the provider refuse it with
     * its own message, so the larger one is the default.
     */
    private static final List<Family> FAMILIES = List.of(
            new Family("claude-", ANTHROPIC, 1_000_000),
            new Family("gpt-", OPENAI, 1_050_000),
            new Family("chatgpt-", OPENAI, 128_000),
            new Family("o1", OPENAI, 200_000),
            new Family("o3", OPENAI, 200_000),
            new Family("o4", OPENAI, 200_000),
            new Family("gemini-", GEMINI, 1_048_576));

    /**
     * The price a cost budget counts a model at that has none of its own, outside a premium tier
     * ({@link #unpricedPriceOf}): the dearest of the table's models of no premium tier (Claude Opus 4
     * and 4.1, $15/$75), so that naming an unpriced model never spends a cost budget more slowly than
     * any standard model listed would.
     */
    public static final ModelPrice HIGHEST_PRICE = dearest(PublishedModels.PRICES.keySet().stream()
            .filter(entry -> !isPremium(entry)).toList());

    /**
     * The dearest price of each family's premium tier ({@link #unpricedPriceOf}), by provider: made
     * once, since a cost budget asks on every call of an unpriced family model.
     */
    private static final Map<String, ModelPrice> DEAREST_PREMIUM = PublishedModels.PRICES.keySet().stream()
            .filter(ModelFamilies::isPremium)
            .collect(Collectors.groupingBy(entry -> providerOf(entry).orElseThrow(),
                    Collectors.collectingAndThen(Collectors.toList(), ModelFamilies::dearest)));

    /** What follows a table entry in the name of one of its snapshots: a date, a four-digit version, or latest. */
    private static final Pattern SNAPSHOT = Pattern.compile("-(\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4}|latest)");

    private ModelFamilies() {
    }

    /** The built-in provider whose family {@code model} belongs to, if any. */
    public static Optional<String> providerOf(String model) {
        return family(model).map(Family::provider);
    }

    /**
     * The published context window of {@code model}.
     *
     * @throws IllegalArgumentException if {@code model} belongs to no family
     */
    public static int contextWindowOf(String model) {
        Family family = family(model).orElseThrow(() ->
                new IllegalArgumentException("model " + model + " belongs to no built-in provider's family"));
        return publishedWindowOf(model).orElse(family.contextWindow());
    }

    /**
     * The window the table publishes for {@code model} (any name, of a family or not): that of the
     * longest entry it equals or starts with, followed by a {@code -} (a variant reads what its base
     * reads: {@code gpt-5.5-pro} is {@code gpt-5.5}'s 1 050 000, unlike its price); empty when none
     * fits (a family's default is not a published window). A cloud's name of a vendor's model is
     * read as the vendor's ({@link #tableName}).
     */
    public static Optional<Integer> publishedWindowOf(String model) {
        return longestEntry(PublishedModels.WINDOWS.keySet(), tableName(model)).map(PublishedModels.WINDOWS::get);
    }

    /**
     * Whether {@code model} is in the built-in table: an entry, or a snapshot of one — the entry
     * followed by a date or a version ({@code gpt-4o-2024-08-06}, {@code claude-sonnet-4-5-20250929},
     * {@code gpt-4-0613}) or {@code -latest}. Any other suffix makes another name
     * ({@code gpt-4o-mimi} is not {@code gpt-4o}, even though it gets its window).
     */
    public static boolean isKnown(String model) {
        return snapshotEntry(PublishedModels.WINDOWS.keySet(), model).isPresent();
    }

    /** The names of the built-in table, sorted. */
    public static List<String> knownModels() {
        return PublishedModels.WINDOWS.keySet().stream().sorted().toList();
    }

    /**
     * The list price of {@code model} (any name, of a family or not): that of the entry it is or is a
     * snapshot of, as {@link #isKnown} reads them ({@code claude-sonnet-4-5-20250929} is
     * {@code claude-sonnet-4-5}); empty for any other name, even one that starts with an entry
     * ({@code gpt-5.5-pro} is not {@code gpt-5.5}, nor {@code o3-deep-research} {@code o3}). A
     * cloud's name of a vendor's model is read as the vendor's ({@link #tableName}). The price tells
     * what the vendor charges for cached input where it publishes it ({@link CachePrices}).
     */
    public static Optional<ModelPrice> priceOf(String model) {
        return snapshotEntry(PublishedModels.PRICES.keySet(), tableName(model))
                .map(entry -> CachePrices.withCache(entry, PublishedModels.PRICES.get(entry)));
    }

    /**
     * The name {@code model} has in the vendor's table, whichever platform names it
     * ({@link ModelName#vendorName}): Bedrock's {@code us.anthropic.claude-opus-4-6-v1:0} and an
     * inference profile's ARN ending in it, Vertex AI's {@code claude-opus-4-6@20260205} and
     * {@code publishers/anthropic/models/claude-opus-4-6} are all {@code claude-opus-4-6}. Without it
     * a Claude model served through Bedrock or Vertex AI had no list price (a cost budget refused its
     * configuration without {@code price}) and was held to 200 000 tokens however large its window.
     */
    static String tableName(String model) {
        return ModelName.of(model).vendorName();
    }

    /**
     * The price a cost budget counts a call of {@code model} at when neither the configuration nor the
     * table ({@link #priceOf}) prices it: a family model served without an entry, a new one or a
     * variant ({@code gpt-5.9}, {@code gpt-4o-realtime-preview}). Never slower than reality, without
     * charging every unknown model as the dearest premium one: a name with a word of its family's
     * premium tier ({@code gpt-5.9-pro}, {@code o4-pro}) is counted at the dearest premium model of its
     * family (o1-pro's $150/$600), every other name at {@link #HIGHEST_PRICE} ($15/$75). Counting
     * everything at o1-pro's price would stop an agent on an unlisted $10-per-million model after an
     * eighth of its budget; counting a premium model at $75 would let it spend its budget eight times.
     */
    public static ModelPrice unpricedPriceOf(String model) {
        return isPremium(model) ? DEAREST_PREMIUM.getOrDefault(providerOf(model).orElseThrow(), HIGHEST_PRICE) : HIGHEST_PRICE;
    }

    /** Whether {@code model} belongs to a family and has a word ({@code -pro-}) of that family's premium tier. */
    private static boolean isPremium(String model) {
        Set<String> words = providerOf(model)
                .map(provider -> PublishedModels.PREMIUM_WORDS.getOrDefault(provider, Set.of())).orElse(Set.of());
        return !words.isEmpty() && Arrays.stream(model.toLowerCase(Locale.ROOT).split("-")).anyMatch(words::contains);
    }

    /** The dearest price of {@code entries} of the price table: by output, then input. */
    private static ModelPrice dearest(List<String> entries) {
        return entries.stream().map(PublishedModels.PRICES::get)
                .max(Comparator.comparing(ModelPrice::output).thenComparing(ModelPrice::input)).orElseThrow();
    }

    /** The longest of {@code entries} that {@code model} equals or is a snapshot of ({@link #SNAPSHOT}). */
    private static Optional<String> snapshotEntry(Set<String> entries, String model) {
        String name = model.toLowerCase(Locale.ROOT);
        if (entries.contains(name)) {
            return Optional.of(name);
        }
        return entries.stream().filter(entry -> name.startsWith(entry + "-")
                        && SNAPSHOT.matcher(name.substring(entry.length())).matches())
                .max(Comparator.comparingInt(String::length));
    }

    /** The longest of {@code entries} that {@code model} equals or starts with, followed by a {@code -}. */
    static Optional<String> longestEntry(Set<String> entries, String model) {
        String name = model.toLowerCase(Locale.ROOT);
        String best = null;
        for (String entry : entries) {
            boolean matches = name.equals(entry) || (name.startsWith(entry) && name.length() > entry.length()
                    && name.charAt(entry.length()) == '-');
            if (matches && (best == null || entry.length() > best.length())) {
                best = entry;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The name the vendor serves {@code model} by: {@code model} itself, except for a name of a model
     * line the vendor has no model of that name for ({@code claude-haiku-4} is served as
     * {@code claude-haiku-4-5}; the table and its sources are {@link PublishedModels#SERVED_NAMES}).
     */
    public static String servedNameOf(String model) {
        return PublishedModels.SERVED_NAMES.getOrDefault(model.toLowerCase(Locale.ROOT), model);
    }

    /**
     * The model {@code name} stands for when it belongs to a family but has no entry: its
     * family's provider, the upstream model the vendor serves it by ({@link #servedNameOf}: the same
     * name but for a line's name the vendor has no model of), the {@code default} breaker,
     * {@code retry} (the top-level one), no fallbacks of its own, no deadline, no hedge, and every other
     * model default; its published context window and list price are those of the model called
     * upstream, else of {@code name} ({@link ModelConfig#publishedWindow}, {@link ModelConfig#listPrice}),
     * as for an entry that wrote that {@code upstreamModel}, else the family's window and no price. The
     * name stays {@code name}: answers, breakers and meters name the model as the configuration does.
     * Empty when {@code name} belongs to no family.
     *
     * @param breakers the {@code breakers:} section; holds {@code default}
     */
    public static Optional<ModelConfig> modelOf(String name, Map<String, BreakerConfig> breakers, RetryConfig retry) {
        String upstream = servedNameOf(name);
        return providerOf(name).map(provider -> new ModelConfig(name, provider, upstream,
                publishedWindowOf(upstream).orElseGet(() -> contextWindowOf(name)),
                ModelConfig.publishedMaxOutput(name, upstream),
                ConfigDefaults.MODEL_TIMEOUT, ConfigDefaults.MODEL_FIRST_TOKEN_TIMEOUT, ConfigDefaults.MODEL_MAX_CONCURRENT,
                List.of(), Optional.of(ConfigDefaults.DEFAULT_BREAKER_NAME),
                breakers.get(ConfigDefaults.DEFAULT_BREAKER_NAME), retry, ConfigDefaults.MODEL_TRANSLATE,
                ModelConfig.listPrice(name, upstream),
                Optional.empty(), Optional.empty(), ConfigDefaults.MODEL_STREAM_IDLE_TIMEOUT, false, false,
                ModelOutputLimits.isKnown(name, upstream, false)));
    }

    private static Optional<Family> family(String model) {
        if (!isPlainName(model)) {
            return Optional.empty();
        }
        String name = model.toLowerCase(Locale.ROOT);
        return FAMILIES.stream().filter(family -> name.startsWith(family.prefix())).findFirst();
    }

    /**
     * Whether {@code model} could be a vendor's name: at most {@link #LONGEST_NAME} chars, each visible
     * ASCII ({@code claude-sonnet-4-5@20250929}, {@code gpt-oss:20b}). A family model's name is written
     * into answers' heads, log lines and meters' labels, where a caller's line break or NUL would
     * forge a header or a log line.
     */
    private static boolean isPlainName(String model) {
        if (model.length() > LONGEST_NAME) {
            return false;
        }
        for (int i = 0; i < model.length(); i++) {
            char c = model.charAt(i);
            if (c <= ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }

    private record Family(String prefix, String provider, int contextWindow) {
    }
}
