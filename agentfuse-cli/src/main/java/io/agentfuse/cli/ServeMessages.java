package io.agentfuse.cli;

import java.io.PrintWriter;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * What {@code serve} says besides its log: the line that it listens (which supervisors and scripts
 * wait for), and why it could not start. As text, the first goes to standard output and the others
 * to standard error; with {@code --log-format json} each is one JSON log line like every other
 * (docs/design.md §9: every line of that output is JSON), the address also as the field {@code url}.
 *
 * <pre>
 * agentfuse gateway listening on http://127.0.0.1:8787
 * {"timestamp":...,"level":"INFO",...,"kvpList": [{"url":"http://127.0.0.1:8787"}],"formattedMessage":"agentfuse gateway listening on http://127.0.0.1:8787",...}
 * </pre>
 *
 * <p>Not thread-safe: used by the thread that runs the command.
 */
final class ServeMessages {

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    private final LogFormat format;
    private final PrintWriter out;
    private final PrintWriter err;

    ServeMessages(LogFormat format, PrintWriter out, PrintWriter err) {
        this.format = Objects.requireNonNull(format, "format");
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /** The gateway listens at {@code baseUrl}: from now on a supervisor may send it signals. */
    void listening(String baseUrl) {
        String line = "agentfuse gateway listening on " + baseUrl;
        if (format == LogFormat.json) {
            LOG.atInfo().addKeyValue("url", baseUrl).log(line);
        } else {
            out.println(line);
            out.flush();
        }
    }

    /** Something the operator must read: why nothing started, or what will not work as expected. */
    void problem(String text) {
        toOperator(Level.ERROR, text);
    }

    /** A warning the operator should read, the gateway running nonetheless. */
    void warning(String text) {
        toOperator(Level.WARN, text);
    }

    private void toOperator(Level level, String text) {
        if (format == LogFormat.json) {
            LOG.atLevel(level).log(text);
        } else {
            err.println(text);
            err.flush();
        }
    }
}
