package io.agentfuse.cli.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Prints what each guard saw and did, with the real time since the scenario began, in colour
 * when the terminal supports it. Scaled waits are shown by the scenarios in seed time too (what
 * they would be at real speed), via {@link #seed(double)}.
 */
final class Timeline {

    private static final String RESET = "\u001B[0m";
    private static final String BOLD = "\u001B[1m";
    private static final String DIM = "\u001B[2m";
    private static final String RED = "\u001B[31m";
    private static final String GREEN = "\u001B[32m";
    private static final String YELLOW = "\u001B[33m";
    private static final String CYAN = "\u001B[36m";

    private final PrintWriter out;
    private final boolean colour;
    private final double speed;
    private long scenarioStart;
    private Instant scenarioStartInstant;

    Timeline(PrintWriter out, boolean colour, double speed) {
        this.out = out;
        this.colour = colour;
        this.speed = speed;
    }

    /** Starts a scenario: prints its title and resets the clock. */
    void scenario(String name, String title) {
        out.println();
        out.println(paint(BOLD + CYAN, "▶ " + name + ": " + title));
        scenarioStart = System.nanoTime();
        scenarioStartInstant = Instant.now();
    }

    /** Something the agent (the demo) did. */
    void agent(String text) {
        line("agent", text, "");
    }

    /** Something a guard did: retry, trip, fallback, compaction. */
    void guard(String guard, String text) {
        line(guard, text, YELLOW);
    }

    /** Something a guard did at {@code at} (a wall-clock time seen elsewhere, e.g. by the mock provider). */
    void guardAt(Instant at, String guard, String text) {
        line(Duration.between(scenarioStartInstant, at).toNanos() / 1e6, guard, text, YELLOW);
    }

    /** Something that went well. */
    void good(String guard, String text) {
        line(guard, text, GREEN);
    }

    /** Something that failed, as it was meant to or not. */
    void bad(String guard, String text) {
        line(guard, text, RED);
    }

    /** A line of explanation. */
    void note(String text) {
        out.println(paint(DIM, "             " + text));
    }

    /** The text in green or red, for the summary table. */
    String verdict(boolean passed) {
        return passed ? paint(GREEN, "ok  ") : paint(RED, "FAIL");
    }

    /** {@code realMillis} of demo time, with what it stands for at real speed: {@code 20 ms (2.0 s)}. */
    String seed(double realMillis) {
        return String.format(Locale.ROOT, "%.0f ms (%s at real speed)", realMillis, DemoConfig.seedTime(realMillis, speed));
    }

    /** Milliseconds since the scenario began. */
    double elapsedMillis() {
        return (System.nanoTime() - scenarioStart) / 1e6;
    }

    private void line(String who, String text, String style) {
        line(elapsedMillis(), who, text, style);
    }

    private void line(double atMillis, String who, String text, String style) {
        String time = String.format(Locale.ROOT, "%8s", String.format(Locale.ROOT, "+%.0f ms", atMillis));
        out.println(paint(DIM, time) + "  " + paint(BOLD, String.format(Locale.ROOT, "%-22s", who)) + " " + paint(style, text));
        out.flush();
    }

    private String paint(String style, String text) {
        return colour && !style.isEmpty() ? style + text + RESET : text;
    }
}
