package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ProviderConfig;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * Reads the {@code providers:} section. An entry named after a provider type may leave out
 * {@code type}; {@code baseUrl} defaults to the type's public endpoint.
 */
final class ProviderBinder {

    private static final List<String> HTTP_SCHEMES = List.of("http", "https");

    private ProviderBinder() {
    }

    static Map<String, ProviderConfig> providers(MapReader root) {
        var providers = new LinkedHashMap<String, ProviderConfig>();
        root.namedSections("providers").forEach((name, section) -> provider(name, section)
                .ifPresent(provider -> providers.put(name, provider)));
        return providers;
    }

    private static Optional<ProviderConfig> provider(String name, MapReader section) {
        Optional<ProviderConfig.Type> implied = typeNamed(name);
        Optional<ProviderConfig.Type> type = section.find("type").isPresent() || implied.isEmpty()
                ? section.requiredChoice("type", ProviderConfig.Type.class) : implied;
        Optional<URI> baseUrl = section.url("baseUrl", type.map(ConfigDefaults::baseUrl), HTTP_SCHEMES);
        String apiKey = section.string("apiKey", "");
        section.finish();
        if (type.isEmpty() || baseUrl.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProviderConfig(name, type.get(), baseUrl.get(), apiKey));
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
