package io.agentfuse.config.internal;

/** A position in the YAML source, 1-based; {@link #NONE} for problems without one. */
record Location(int line, int column) {

    static final Location NONE = new Location(0, 0);
}
