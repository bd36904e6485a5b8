package io.agentfuse.cli;

/**
 * How {@code serve} writes its log lines: as text, or as one JSON object per line for log
 * collectors (docs/design.md §9). The choice is made before the first logger exists: logback reads it from
 * the system property {@value #PROPERTY} when it configures itself ({@link LogSetup}).
 */
enum LogFormat {
    /** {@code 2026-12-01T11:21:57.512Z INFO  ConfigReloader: configuration reloaded ...} */
    text,
    /** {@code {"timestamp":...,"level":"INFO","loggerName":"...","formattedMessage":"..."}} */
    json;

    static final String PROPERTY = "agentfuse.log.format";

    /** Makes this the format of every log line from now on; call before anything logs. */
    void select() {
        System.setProperty(PROPERTY, name());
    }
}
