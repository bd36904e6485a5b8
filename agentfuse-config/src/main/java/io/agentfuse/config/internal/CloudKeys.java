package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.config.ProviderConfig.Cloud;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the keys of the cloud provider types ({@link Cloud}), each only for its type, and reports what
 * the provider could not be called without, at the provider's line: a {@code bedrock} provider without
 * {@code region} or credentials, half a static key pair, a {@code vertex} provider without
 * {@code project} or whose credentials file is missing or unreadable. Secrets are never part of a
 * message. Stateless.
 */
final class CloudKeys {

    /** An AWS region or a Vertex location: lower-case words joined by hyphens, nothing a URL would read otherwise. */
    private static final Pattern REGION = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    /** A Google Cloud project id (letters, digits, hyphens; a domain-scoped one with {@code .} and {@code :}) or number. */
    private static final Pattern PROJECT = Pattern.compile("[a-z0-9][a-z0-9.:-]*[a-z0-9]");

    private CloudKeys() {
    }

    /** The cloud keys of a provider of {@code type} in {@code section}; {@link Cloud#NONE} for the other types. */
    static Cloud read(ProviderConfig.Type type, MapReader section, Map<String, String> environment) {
        return switch (type) {
            case BEDROCK -> bedrock(section);
            case VERTEX -> vertex(section, environment);
            case AZURE -> new Cloud("", "", "", "", "", "", "", section.string("apiVersion", "").strip(),
                    section.string("azureAdToken", "").strip());
            default -> Cloud.NONE;
        };
    }

    private static Cloud bedrock(MapReader section) {
        String region = pattern(section, section.requiredString("region"), "region", REGION,
                "an AWS region such as us-east-1");
        String keyId = section.string("accessKeyId", "").strip();
        String secret = section.string("secretAccessKey", "").strip();
        String token = section.string("sessionToken", "").strip();
        String credentials = section.string("credentials", "").strip();
        boolean hasApiKey = section.find("apiKey").isPresent();
        if (!credentials.isEmpty() && !Cloud.DEFAULT_CREDENTIALS.equals(credentials)) {
            section.error("credentials", "must be default (the AWS SDK's default chain) for a bedrock provider,"
                    + " but was \"" + credentials + "\"");
        } else if (!credentials.isEmpty() && !(keyId.isEmpty() && secret.isEmpty())) {
            section.error("credentials", "is default, so accessKeyId and secretAccessKey must be left out");
        } else if (keyId.isEmpty() != secret.isEmpty()) {
            section.error(keyId.isEmpty() ? "accessKeyId" : "secretAccessKey",
                    "is required with " + (keyId.isEmpty() ? "secretAccessKey" : "accessKeyId")
                            + " (an empty value is an unset variable?)");
        } else if (credentials.isEmpty() && keyId.isEmpty() && !hasApiKey) {
            section.error("credentials", "is required for a bedrock provider: accessKeyId and secretAccessKey"
                    + " (and sessionToken for temporary keys), credentials: default, or a Bedrock apiKey");
        }
        if (!token.isEmpty() && keyId.isEmpty()) {
            section.error("sessionToken", "needs accessKeyId and secretAccessKey");
        }
        return new Cloud(region, keyId, secret, token, credentials, "", "", "", "");
    }

    private static Cloud vertex(MapReader section, Map<String, String> environment) {
        String project = pattern(section, section.requiredString("project"), "project", PROJECT, "a Google Cloud project id");
        String location = pattern(section, Optional.of(section.string("location", ConfigDefaults.VERTEX_LOCATION).strip()),
                "location", REGION, "a Vertex AI region such as us-east5, or global");
        String fallback = environment.getOrDefault(ConfigDefaults.GOOGLE_CREDENTIALS_VARIABLE, "");
        String credentials = section.string("credentials", fallback).strip();
        if (credentials.isEmpty()) {
            section.error("credentials", "is required for a vertex provider: the path of a service account's"
                    + " credentials file (or set " + ConfigDefaults.GOOGLE_CREDENTIALS_VARIABLE + ")");
        } else if (!readableFile(credentials)) {
            section.error("credentials", "must be a readable service-account credentials file, but " + credentials
                    + " is " + (exists(credentials) ? "not a readable file" : "missing"));
        }
        return new Cloud("", "", "", "", credentials, project, location, "", "");
    }

    private static String pattern(MapReader section, Optional<String> value, String key, Pattern pattern, String expected) {
        if (value.isEmpty()) {
            return "";
        }
        String text = value.get().strip();
        if (!pattern.matcher(text).matches()) {
            section.error(key, "must be " + expected + ", but was \"" + text + "\"");
            return "";
        }
        return text;
    }

    private static boolean readableFile(String path) {
        try {
            Path file = Path.of(path);
            return Files.isRegularFile(file) && Files.isReadable(file);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static boolean exists(String path) {
        try {
            return Files.exists(Path.of(path));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
