package io.agentfuse.gateway.dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * What a parser noted, while reading a request, about carrying it to another dialect: the parts
 * that cannot be carried ({@link #untranslatable()}), the fields left out because they do not change
 * the answer ({@link #dropped()}), and the parts only a model with {@code translate: lenient} goes
 * without ({@link #lenientDrops()}, with their reasons in {@link #lenientReasons()}). Which field is
 * which is the provider packages' {@code TranslationTable}.
 *
 * <p>Mutable, for one parse on one thread; {@link ChatRequest} keeps copies.
 */
public final class CrossingNotes {

    private final List<String> untranslatable;
    private final List<String> dropped = new ArrayList<>(4);
    private final List<String> lenientDrops = new ArrayList<>(2);
    private final List<String> lenientReasons = new ArrayList<>(2);

    /** Notes whose untranslatable parts go to {@code untranslatable} (shared with the parser's message notes). */
    public CrossingNotes(List<String> untranslatable) {
        this.untranslatable = untranslatable;
    }

    /** Notes with a list of their own. */
    public CrossingNotes() {
        this(new ArrayList<>());
    }

    /** {@code what} cannot be carried to another dialect. */
    public void refuse(String what) {
        untranslatable.add(what);
    }

    /** {@code field} does not change the answer: left out across dialects, and named. */
    public void drop(String field) {
        if (!dropped.contains(field)) {
            dropped.add(field);
        }
    }

    /** {@code what} has no equivalent; a lenient model goes without it (named {@code name}), a strict one cannot take the request ({@code reason}). */
    public void lenient(String name, String reason) {
        lenientDrops.add(name);
        lenientReasons.add(reason);
    }

    /** The untranslatable parts, as reasons. */
    public List<String> untranslatable() {
        return untranslatable;
    }

    /** The fields left out across dialects. */
    public List<String> dropped() {
        return dropped;
    }

    /** The names of what a lenient model goes without. */
    public List<String> lenientDrops() {
        return lenientDrops;
    }

    /** Why a strict model cannot take the request, one reason per entry of {@link #lenientDrops()}. */
    public List<String> lenientReasons() {
        return lenientReasons;
    }
}
