package io.agentfuse.springai.autoconfigure;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigError;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the auto-configuration's {@link AgentfuseConfig} comes from: the YAML file that
 * {@code agentfuse.config-file} names ({@code classpath:agentfuse.yaml}, {@code file:/etc/agentfuse.yaml}
 * or a plain path), else the {@code agentfuse.*} properties ({@link PropertyTree}), else every default.
 * {@code ${NAME}} in the YAML is resolved from the Spring environment (system properties,
 * environment variables, application properties). A bad configuration throws the
 * {@link ConfigException} that names each key and line.
 *
 * <p>Stateless.
 */
final class AgentfuseConfigSource {

    /** The property that names the YAML file. */
    static final String CONFIG_FILE = "agentfuse.config-file";
    /** The source name errors show for a configuration made of properties. */
    static final String PROPERTIES_SOURCE = "agentfuse.* properties";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)");

    private AgentfuseConfigSource() {
    }

    static AgentfuseConfig load(ConfigurableEnvironment environment, ResourceLoader resources) {
        String location = environment.getProperty(CONFIG_FILE);
        if (location != null && !location.isBlank()) {
            String yaml = read(resources, location.trim());
            return ConfigLoader.parse(yaml, location.trim(), variables(environment, yaml));
        }
        String yaml = PropertyTree.yaml(environment);
        return ConfigLoader.parse(yaml.isEmpty() ? "{}" : yaml, PROPERTIES_SOURCE, variables(environment, yaml));
    }

    private static String read(ResourceLoader resources, String location) {
        Resource resource = resources.getResource(location.contains(":") && !isWindowsPath(location) ? location : "file:" + location);
        try (InputStream in = resource.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (FileNotFoundException e) {
            throw unreadable(location, "no such file");
        } catch (IOException e) {
            throw unreadable(location, "cannot read the file: " + e.getMessage());
        }
    }

    private static boolean isWindowsPath(String location) {
        return location.length() > 2 && Character.isLetter(location.charAt(0)) && location.charAt(1) == ':'
                && (location.charAt(2) == '\\' || location.charAt(2) == '/');
    }

    private static ConfigException unreadable(String location, String reason) {
        return new ConfigException(location, List.of(new ConfigError("", 0, 0, reason)));
    }

    /** The value in the Spring environment of every {@code ${NAME}} that {@code yaml} refers to. */
    private static Map<String, String> variables(ConfigurableEnvironment environment, String yaml) {
        Map<String, String> variables = new HashMap<>();
        Matcher reference = REFERENCE.matcher(yaml);
        while (reference.find()) {
            String value = environment.getProperty(reference.group(1));
            if (value != null) {
                variables.put(reference.group(1), value);
            }
        }
        return variables;
    }
}
