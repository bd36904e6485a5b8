package io.agentfuse.config.internal;

/** Dotted key paths, as errors show them: {@code tools.web_search.circuitBreaker}. */
final class Paths {

    private Paths() {
    }

    static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }
}
