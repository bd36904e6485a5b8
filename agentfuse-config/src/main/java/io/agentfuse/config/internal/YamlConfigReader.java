package io.agentfuse.config.internal;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.CheckedConfig;
import io.agentfuse.config.ConfigException;
import io.agentfuse.config.ConfigLoader;
import java.util.Map;
import java.util.Optional;

/**
 * The pipeline behind {@link io.agentfuse.config.ConfigLoader}: YAML text → located node tree
 * (with {@code ${ENV}} interpolated) → validated, resolved {@link AgentfuseConfig}. Stateless
 * and thread-safe; each call uses fresh state.
 */
public final class YamlConfigReader {

    private YamlConfigReader() {
    }

    /** The error for a configuration of {@code length} (with its unit), over {@link ConfigLoader#MAX_FILE_BYTES}. */
    public static String tooLong(String length) {
        return "the file is " + length + " long; a configuration file may be at most " + ConfigLoader.MAX_FILE_BYTES
                + " bytes (1 MiB), so it is not read";
    }

    /**
     * @param yaml        the file's text
     * @param source      the file's name as errors show it
     * @param environment the variables {@code ${NAME}} may refer to
     * @throws ConfigException with every problem found, if there is any
     */
    public static AgentfuseConfig read(String yaml, String source, Map<String, String> environment) {
        return check(yaml, source, environment).config();
    }

    /** Like {@link #read}, with the warnings about a usable file. */
    public static CheckedConfig check(String yaml, String source, Map<String, String> environment) {
        var problems = new Problems();
        Optional<Node.MapNode> root = new YamlTreeReader(new EnvInterpolator(environment), problems).read(yaml);
        Optional<AgentfuseConfig> config = root.map(map -> ConfigBinder.bind(map, environment, problems));
        if (!problems.isEmpty() || config.isEmpty()) {
            throw new ConfigException(source, problems.inFileOrder());
        }
        return new CheckedConfig(config.get(), problems.warningsInFileOrder());
    }
}
