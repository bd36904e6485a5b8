package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.internal.Checks;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the {@code providers:} section. An entry named after a provider type may leave out
 * {@code type}; {@code baseUrl} defaults to the type's public endpoint. The built-in providers,
 * {@code anthropic}, {@code openai} and {@code gemini}, exist even when the section leaves them out,
 * and each one's {@code apiKey} defaults to its conventional variable ({@code ANTHROPIC_API_KEY},
 * {@code OPENAI_API_KEY}, {@code GEMINI_API_KEY}), empty when that is unset. The cloud types' own
 * keys are read by {@link CloudKeys}, and only for their types: {@code region} on an {@code openai}
 * provider is an unknown key.
 */
final class ProviderBinder {

    private static final List<String> HTTP_SCHEMES = List.of("http", "https");
    /** A header name: an HTTP token (RFC 9110, section 5.6.2). */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    private ProviderBinder() {
    }

    static Map<String, ProviderConfig> providers(MapReader root, Map<String, String> environment) {
        var providers = new LinkedHashMap<String, ProviderConfig>();
        Map<String, MapReader> sections = root.namedSections("providers");
        sections.forEach((name, section) -> provider(name, section, environment)
                .ifPresent(provider -> providers.put(name, provider)));
        ConfigDefaults.builtInProviders(environment).forEach((name, provider) ->
                providers.putIfAbsent(name, sections.containsKey(name) ? provider : sendableKey(root, provider)));
        return providers;
    }

    /**
     * {@code provider}, a built-in one the file leaves out, whose key came from its variable alone;
     * without it, and the variable reported, when that key cannot be sent ({@link ValueRules#headerSecret}).
     */
    private static ProviderConfig sendableKey(MapReader root, ProviderConfig provider) {
        String problem = ValueRules.headerSecret(provider.apiKey());
        if (problem == null) {
            return provider;
        }
        String variable = ConfigDefaults.apiKeyVariable(provider.type()).orElseThrow();
        root.problems().add(Paths.child(Paths.child(root.pathOf("providers"), provider.name()), "apiKey"), root.location(),
                "the variable " + variable + " " + problem);
        return new ProviderConfig(provider.name(), provider.type(), provider.baseUrl(), "");
    }

    private static Optional<ProviderConfig> provider(String name, MapReader section, Map<String, String> environment) {
        Optional<ProviderConfig.Type> implied = typeNamed(name);
        Optional<ProviderConfig.Type> type = section.find("type").isPresent() || implied.isEmpty()
                ? section.requiredChoice("type", ProviderConfig.Type.class) : implied;
        ProviderConfig.Cloud cloud = type.map(t -> CloudKeys.read(t, section, environment)).orElse(ProviderConfig.Cloud.NONE);
        Optional<URI> baseUrl = section.url("baseUrl", type.flatMap(t -> ConfigDefaults.baseUrl(t, cloud)), HTTP_SCHEMES);
        if (type.isPresent() && type.get() == ProviderConfig.Type.AZURE && section.find("baseUrl").isEmpty()) {
            section.error("baseUrl", "is required for an azure provider: its resource's endpoint,"
                    + " https://{resource}.openai.azure.com/openai/v1");
        }
        String apiKey = HeaderSecrets.optional(section, "apiKey", type.map(t -> ConfigDefaults.apiKey(t, environment)).orElse(""));
        boolean storedResponses = section.bool("storedResponses", false);
        if (storedResponses && type.isPresent() && type.get() != ProviderConfig.Type.OPENAI) {
            section.error("storedResponses", "applies to providers of type openai (the Responses API) only");
        }
        Map<String, String> headers = headers(section);
        section.finish();
        if (type.isEmpty() || baseUrl.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProviderConfig(name, type.get(), baseUrl.get(), apiKey, headers, storedResponses, cloud));
    }

    /**
     * {@code headers:}, a map of header names to string values; a name that is not an HTTP token, a
     * value with a line break, or a value that is not a string is reported and left out.
     */
    private static Map<String, String> headers(MapReader section) {
        var headers = new LinkedHashMap<String, String>();
        Optional<Node> node = section.find("headers");
        if (node.isEmpty() || MapReader.isNull(node.get())) {
            return headers;
        }
        if (!(node.get() instanceof Node.MapNode map)) {
            section.error("headers", Checks.mustBe("a map of header names to values", node.get().describe()));
            return headers;
        }
        map.entries().forEach((name, entry) -> {
            String value = entry.value() instanceof Node.ScalarNode scalar && !scalar.isNull() ? scalar.text() : null;
            if (!HEADER_NAME.matcher(name).matches()) {
                section.problems().add(entry.value(), "must be named by an HTTP header name (letters, digits and"
                        + " !#$%&'*+-.^_`|~), but was \"" + name + "\"");
            } else if (value == null) {
                section.problems().add(entry.value(), Checks.mustBe("a string", entry.value().describe()));
            } else if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                section.problems().add(entry.value(), "must be one line, but had a line break");
            } else {
                headers.put(name, value);
            }
        });
        return headers;
    }

    /** {@code anthropic:} implies {@code type: anthropic}. */
    private static Optional<ProviderConfig.Type> typeNamed(String name) {
        for (ProviderConfig.Type type : ProviderConfig.Type.values()) {
            if (type.name().toLowerCase(Locale.ROOT).equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
