package io.agentfuse.cli;

import java.io.Writer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Output that completes a future with the first match of a pattern, so a test can wait for a line. */
final class FirstMatch extends Writer {

    private final Pattern pattern;
    private final StringBuilder text = new StringBuilder();
    private final CompletableFuture<Matcher> match = new CompletableFuture<>();

    FirstMatch(Pattern pattern) {
        this.pattern = pattern;
    }

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
        text.append(buffer, offset, length);
        Matcher matcher = pattern.matcher(text);
        if (!match.isDone() && matcher.find()) {
            match.complete(matcher);
        }
    }

    /** Group {@code group} of the first match, waiting up to 20 s for it. */
    String group(int group) throws Exception {
        return match.get(20, TimeUnit.SECONDS).group(group);
    }

    /** Everything written so far. */
    synchronized String text() {
        return text.toString();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
