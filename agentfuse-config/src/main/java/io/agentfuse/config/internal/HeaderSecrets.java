package io.agentfuse.config.internal;

import java.util.Optional;

/**
 * Reads the secrets the gateway sends in an HTTP header (an API key, a client key, the admin
 * token): a value that cannot be sent ({@link ValueRules#headerSecret}: a line break from the file or
 * variable it came from, say) is reported at its key, without the value, and read as empty — a
 * default taken from the environment included, so it never reaches a header, or a caller's error.
 */
final class HeaderSecrets {

    private HeaderSecrets() {
    }

    /** The secret at {@code key} of {@code section}, {@code fallback} when not written; empty when it cannot be sent. */
    static String optional(MapReader section, String key, String fallback) {
        return sendable(section, key, section.string(key, fallback));
    }

    /** The secret that must be written at {@code key} ({@link MapReader#requiredString}); empty when it cannot be sent. */
    static Optional<String> required(MapReader section, String key) {
        return section.requiredString(key).map(value -> sendable(section, key, value)).filter(value -> !value.isEmpty());
    }

    private static String sendable(MapReader section, String key, String value) {
        String problem = ValueRules.headerSecret(value);
        if (problem != null) {
            section.error(key, problem);
        }
        return problem == null ? value : "";
    }
}
