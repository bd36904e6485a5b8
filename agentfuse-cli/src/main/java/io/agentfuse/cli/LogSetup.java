package io.agentfuse.cli;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.hook.DefaultShutdownHook;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * How the command line logs, set up in code rather than from a {@code logback.xml}: reading XML
 * cost every start Logback's configuration interpreter and the JDK's XML parser, some 650 classes
 * no log line needs. Found by Logback through {@code META-INF/services}, ahead of any file.
 *
 * <p>One line per event on standard error (standard output carries the commands' own lines): as
 * text, or as one JSON object per line when {@code serve --log-format json} set the system property
 * {@value LogFormat#PROPERTY} before the first logger. Lines are written by a thread of their own,
 * so an event loop never waits for a slow terminal or pipe; when its queue (8192) is full, a line is
 * dropped rather than the caller blocked, warnings and errors kept before information is discarded;
 * the JVM's exit waits for the lines queued. {@code AGENTFUSE_LOG_LEVEL} (a variable or system
 * property; default {@code INFO}) sets agentfuse's level, other libraries log warnings and errors.
 *
 * <p>Used by Logback once, at its initialisation.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {

    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0}: %msg%n";
    private static final String LEVEL_VARIABLE = "AGENTFUSE_LOG_LEVEL";
    private static final int QUEUE_SIZE = 8192;

    /** For Logback's service loader. */
    public LogSetup() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        context.getStatusManager().add(new NopStatusListener()); // quiet about itself
        LogFormat format = "json".equals(System.getProperty(LogFormat.PROPERTY)) ? LogFormat.json : LogFormat.text;
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(format.name());
        console.setTarget("System.err");
        console.setEncoder(encoder(context, format));
        console.start();

        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("async");
        async.setQueueSize(QUEUE_SIZE);
        async.setNeverBlock(true);
        async.addAppender(console);
        async.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(async);
        context.getLogger("io.agentfuse").setLevel(Level.toLevel(level(), Level.INFO));

        DefaultShutdownHook flush = new DefaultShutdownHook();
        flush.setContext(context);
        Runtime.getRuntime().addShutdownHook(new Thread(flush, "agentfuse-log-flush"));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, LogFormat format) {
        if (format == LogFormat.json) {
            JsonEncoder json = new JsonEncoder();
            json.setContext(context);
            json.setWithSequenceNumber(false);
            json.setWithNanoseconds(false);
            json.setWithContext(false);
            json.setWithThreadName(false);
            json.setWithFormattedMessage(true);
            json.setWithMessage(false);
            json.setWithArguments(false);
            json.start();
            return json;
        }
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        text.start();
        return text;
    }

    private static String level() {
        String property = System.getProperty(LEVEL_VARIABLE);
        return property != null ? property : System.getenv(LEVEL_VARIABLE);
    }
}
