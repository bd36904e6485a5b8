package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.CrossingNotes;
import io.agentfuse.gateway.dialect.FieldReader;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one table of what happens to each field of a request when it crosses from its dialect to
 * another (a fallback step of the other provider). On a route of the caller's own dialect nothing
 * here applies: the body goes upstream as sent, fields the gateway does not know included.
 *
 * <table>
 *   <caption>treatments</caption>
 *   <tr><th>treatment</th><th>meaning</th><th>across dialects</th></tr>
 *   <tr><td>{@link Treatment#TRANSLATE}</td><td>the neutral model carries it (the parser may still refuse
 *       a value that changes the answer, such as {@code n > 1} or a JSON-schema answer format)</td><td>written in the target's terms</td></tr>
 *   <tr><td>{@link Treatment#DROP}</td><td>no effect on the answer: metadata, cache keys, service tiers,
 *       reasoning hints, user and safety identifiers, context management</td><td>left out, named in {@code x-agentfuse-fallbacks}</td></tr>
 *   <tr><td>{@link Treatment#LENIENT}</td><td>changes the answer and has no equivalent, but leaving it out
 *       still gives an answer: provider-run tools ({@code web_search}, code execution, ...) and fields the gateway does not know</td>
 *       <td>the step is skipped, unless the model says {@code translate: lenient}: then left out and named</td></tr>
 *   <tr><td>{@link Treatment#REFUSE}</td><td>the answer would be wrong without it: stored state
 *       ({@code previous_response_id}, {@code conversation}), provider-run containers, audio, log-probabilities</td><td>the step is skipped</td></tr>
 * </table>
 *
 * Tools are looked up by their {@code type} ({@link #tool}); a tool without a type, of type
 * {@code function} or {@code custom} (Anthropic), or an OpenAI Responses {@code namespace} of
 * functions (flattened to {@code namespace__name}) is translated, every other type is
 * {@link Treatment#LENIENT}: it runs at the provider.
 *
 * <p>Stateless and thread-safe; the parsers of the provider packages consult it once per request.
 */
public final class TranslationTable {

    /** What crossing dialects does to a field. */
    public enum Treatment { TRANSLATE, DROP, LENIENT, REFUSE }

    /** Anthropic Messages, top-level fields. */
    private static final Map<String, Treatment> MESSAGES = fields(
            List.of("model", "messages", "system", "max_tokens", "temperature", "top_p", "stop_sequences", "stream",
                    "tools", "tool_choice"),
            List.of("metadata", "thinking", "top_k", "service_tier", "context_management", "output_config",
                    "cache_control", "inference_geo"),
            List.of("container", "mcp_servers"));

    /** OpenAI Chat Completions, top-level fields. */
    private static final Map<String, Treatment> CHAT = fields(
            List.of("model", "messages", "tools", "tool_choice", "parallel_tool_calls", "max_tokens",
                    "max_completion_tokens", "temperature", "top_p", "stop", "stream", "stream_options", "user", "n",
                    "response_format", "logprobs", "modalities", "logit_bias"),
            List.of("frequency_penalty", "presence_penalty", "seed", "store", "metadata", "service_tier",
                    "reasoning_effort", "verbosity", "prompt_cache_key", "prompt_cache_retention", "safety_identifier"),
            List.of("audio", "prediction", "functions", "function_call", "top_logprobs"),
            Map.of("web_search_options", Treatment.LENIENT));

    /** OpenAI Responses, top-level fields. */
    private static final Map<String, Treatment> RESPONSES = fields(
            List.of("model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls",
                    "max_output_tokens", "temperature", "top_p", "stream", "user", "text", "background", "top_logprobs"),
            List.of("reasoning", "metadata", "client_metadata", "store", "include", "truncation", "stream_options",
                    "service_tier", "prompt_cache_key", "prompt_cache_retention", "safety_identifier", "max_tool_calls",
                    "context_management"),
            List.of("previous_response_id", "conversation", "prompt"));

    /** Refused fields whose reason is the provider's stored state. */
    private static final Set<String> STATEFUL = Set.of("previous_response_id", "conversation", "prompt");

    /** Tool types every dialect translates (the type of a function the caller runs itself). */
    private static final Set<String> CALLER_TOOLS = Set.of("function", "custom", "namespace");

    private static final Map<String, Map<String, Treatment>> BY_DIALECT = Map.of(
            "anthropic", MESSAGES, "openai", CHAT, "responses", RESPONSES);

    private TranslationTable() {
    }

    /** The treatment of top-level {@code field} of a request in {@code dialect}; unknown fields are {@link Treatment#LENIENT}. */
    public static Treatment field(String dialect, String field) {
        return table(dialect).getOrDefault(field, Treatment.LENIENT);
    }

    private static Map<String, Treatment> table(String dialect) {
        Map<String, Treatment> table = BY_DIALECT.get(dialect);
        if (table == null) {
            throw new IllegalArgumentException("no translation table for dialect " + dialect);
        }
        return table;
    }

    /**
     * The treatment of a tool of {@code type} ({@code null}: untyped, as Anthropic's custom tools):
     * translated for tools the caller runs, {@link Treatment#LENIENT} for tools the provider runs.
     */
    public static Treatment tool(String type) {
        return type == null || CALLER_TOOLS.contains(type) ? Treatment.TRANSLATE : Treatment.LENIENT;
    }

    /**
     * Sorts the top-level fields of {@code root}, a request of {@code dialect}, into {@code notes}:
     * dropped fields by name, fields only a lenient model can go without and refused ones with the reason.
     * Translated fields are the parser's to read.
     */
    public static void sortFields(String dialect, FieldReader root, CrossingNotes notes) {
        for (String field : root.json().fieldNames()) {
            if (!root.has(field)) {
                continue; // null is absent
            }
            Treatment treatment = table(dialect).get(field);
            if (treatment == null) {
                notes.lenient(field, root.path(field) + " (a field the gateway does not know)");
                continue;
            }
            switch (treatment) {
                case TRANSLATE -> {
                }
                case DROP -> notes.drop(field);
                case LENIENT -> notes.lenient(field, field + " (runs at the provider)");
                case REFUSE -> notes.refuse(STATEFUL.contains(field) ? field + " (needs the provider's stored state)" : field);
            }
        }
    }

    @SafeVarargs
    private static Map<String, Treatment> fields(List<String> translated, List<String> dropped, List<String> refused,
                                                 Map<String, Treatment>... others) {
        var table = new java.util.HashMap<String, Treatment>();
        translated.forEach(field -> table.put(field, Treatment.TRANSLATE));
        dropped.forEach(field -> table.put(field, Treatment.DROP));
        refused.forEach(field -> table.put(field, Treatment.REFUSE));
        for (Map<String, Treatment> more : others) {
            table.putAll(more);
        }
        return Map.copyOf(table);
    }
}
