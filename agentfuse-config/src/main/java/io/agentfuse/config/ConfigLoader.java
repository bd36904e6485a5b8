package io.agentfuse.config;

import io.agentfuse.config.internal.YamlConfigReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Loads an agentfuse YAML file into an {@link AgentfuseConfig}: reads it, interpolates
 * {@code ${ENV}} and {@code ${ENV:-default}}, validates every key and value, checks every
 * reference, fills in the {@link ConfigDefaults}, and either returns a consistent configuration
 * or throws a {@link ConfigException} listing <em>all</em> problems with their line and column.
 * An unreadable file is a {@code ConfigException} too, so callers handle one failure type.
 *
 * <p>Stateless and thread-safe. The environment is a parameter, so that tests never depend on
 * the real one.
 *
 * <pre>{@code
 * AgentfuseConfig config = ConfigLoader.load(Path.of("agentfuse.yaml"));             // System.getenv()
 * AgentfuseConfig test = ConfigLoader.load(file, Map.of("ANTHROPIC_API_KEY", "sk-test"));
 * AgentfuseConfig inline = ConfigLoader.parse("models: {}", "inline.yaml", Map.of());
 * }</pre>
 */
public final class ConfigLoader {

    /**
     * The longest configuration file read, in bytes (and the longest text parsed, in characters):
     * 1 MiB, as much as a Kubernetes ConfigMap holds, and a thousand times what a configuration
     * needs. A longer file is refused before it is read, saying so.
     */
    public static final int MAX_FILE_BYTES = 1 << 20;

    private ConfigLoader() {
    }

    /** Loads {@code file} with the process environment. */
    public static AgentfuseConfig load(Path file) {
        return load(file, System.getenv());
    }

    /**
     * Loads {@code file}, resolving {@code ${NAME}} from {@code environment}.
     *
     * @throws ConfigException if the file cannot be read or holds any problem; its
     *                         {@linkplain ConfigException#source() source} is {@code file} as given
     */
    public static AgentfuseConfig load(Path file, Map<String, String> environment) {
        return parse(read(file), file.toString(), environment);
    }

    /**
     * Loads {@code file} like {@link #load(Path, Map)}, and says what a usable file should still
     * change (a model of a built-in family that the table of known models does not know, say): what
     * {@code agentfuse validate} prints.
     *
     * @throws ConfigException if the file cannot be read or holds any problem
     */
    public static CheckedConfig check(Path file, Map<String, String> environment) {
        return YamlConfigReader.check(read(file), file.toString(), environment);
    }

    /**
     * The text of {@code file}, for a caller that parses it itself (a reload that compares it with
     * what it read before).
     *
     * <p>No more than {@link #MAX_FILE_BYTES} are read, whatever the file says its size is: a device
     * such as {@code /dev/zero} says it is empty and never ends. A pipe ({@code --config <(envsubst
     * < template.yaml)}) is read as it comes.
     *
     * @throws ConfigException if the file is missing, too long, unreadable or not UTF-8, saying which
     */
    public static String read(Path file) {
        String source = file.toString();
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw unreadable(source, YamlConfigReader.tooLong(size + " bytes"));
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1); // one byte more tells a longer stream
            }
            if (bytes.length > MAX_FILE_BYTES) {
                throw unreadable(source, YamlConfigReader.tooLong("more than " + MAX_FILE_BYTES + " bytes"));
            }
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw unreadable(source, "no such file");
        } catch (CharacterCodingException e) {
            throw unreadable(source, "the file is not UTF-8 text");
        } catch (IOException e) {
            throw unreadable(source, "cannot read the file: " + e.getMessage());
        }
    }

    /**
     * Parses YAML text, as {@link #load(Path, Map)} does with a file's content.
     *
     * @param source the name errors show for the text, for example {@code "agentfuse.yaml"}
     */
    public static AgentfuseConfig parse(String yaml, String source, Map<String, String> environment) {
        return YamlConfigReader.read(yaml, source, environment);
    }

    private static ConfigException unreadable(String source, String reason) {
        return new ConfigException(source, List.of(new ConfigError("", 0, 0, reason)));
    }
}
