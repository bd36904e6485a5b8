package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.provider.anthropic.AnthropicDialect;
import io.agentfuse.gateway.provider.openai.OpenAiDialect;
import io.vertx.core.MultiMap;

import java.util.List;
import java.util.Optional;

/**
 * The provider dialects the gateway speaks, registered here once: each gets its endpoint, and
 * serves the providers whose configured {@code type} is its {@link Dialect#name()}. Adding a
 * dialect is a package beside {@code openai} and {@code anthropic} plus one entry in {@link #ALL}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * Dialect dialect = Dialects.named("anthropic").orElseThrow();
 * Dialect caller = Dialects.ofCaller("/v1/models", request.headers());
 * }</pre>
 */
public final class Dialects {

    /** OpenAI Chat Completions. */
    public static final Dialect OPENAI = OpenAiDialect.INSTANCE;
    /** Anthropic Messages. */
    public static final Dialect ANTHROPIC = AnthropicDialect.INSTANCE;

    /** Every dialect; the first one that claims a caller wins, and OpenAI's is the default. */
    private static final List<Dialect> ALL = List.of(ANTHROPIC, OPENAI);

    private Dialects() {
    }

    /** Every registered dialect. */
    public static List<Dialect> all() {
        return ALL;
    }

    /** The dialect called {@code name} (a provider {@code type}), case-insensitively. */
    public static Optional<Dialect> named(String name) {
        return ALL.stream().filter(dialect -> dialect.name().equalsIgnoreCase(name)).findFirst();
    }

    /** The dialect served on gateway path {@code path}, if any. */
    public static Optional<Dialect> forPath(String path) {
        return ALL.stream().filter(dialect -> dialect.path().equals(path)).findFirst();
    }

    /**
     * The dialect a caller speaks, judged from any path and its headers, so that every error —
     * an unknown path too — is answered in it; OpenAI's when nothing tells.
     */
    public static Dialect ofCaller(String path, MultiMap headers) {
        return ALL.stream().filter(dialect -> dialect.spokenBy(path, headers)).findFirst().orElse(OPENAI);
    }
}
