package io.agentfuse.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version {@code agentfuse --version} prints: the Maven project version, written into
 * {@code version.properties} when the jar is built. Stateless and thread-safe.
 */
public final class VersionProvider implements IVersionProvider {

    private static final String RESOURCE = "version.properties";

    /** The project version, e.g. {@code 0.1.0}. */
    public static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            var properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"agentfuse " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }
}
