package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.provider.anthropic.AnthropicDialect;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.agentfuse.gateway.provider.openai.OpenAiDialect;
import io.agentfuse.gateway.provider.responses.ResponsesDialect;
import io.vertx.core.MultiMap;

import java.util.List;
import java.util.Optional;

/**
 * The provider dialects the gateway speaks, registered here once: each gets its endpoint, and
 * is spoken to the providers whose configured {@code type} is its {@link Dialect#providerType()}
 * ({@link #forProvider}). Adding a dialect is a package beside {@code openai} and
 * {@code anthropic} plus one entry in {@link #ALL}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * Dialect dialect = Dialects.named("anthropic").orElseThrow();
 * Dialect upstream = Dialects.forProvider("openai", Dialects.RESPONSES).orElseThrow(); // RESPONSES
 * Dialect caller = Dialects.ofCaller("/v1/models", request.headers());
 * }</pre>
 */
public final class Dialects {

    /** OpenAI Chat Completions. */
    public static final Dialect OPENAI = OpenAiDialect.INSTANCE;
    /** Anthropic Messages. */
    public static final Dialect ANTHROPIC = AnthropicDialect.INSTANCE;
    /** The OpenAI Responses API, spoken to OpenAI providers. */
    public static final Dialect RESPONSES = ResponsesDialect.INSTANCE;
    /** The Gemini API; its callers are served on the paths of their model ({@code /v1beta/models/{model}:generateContent}). */
    public static final Dialect GEMINI = GeminiDialect.INSTANCE;

    /** Every dialect; the first one that claims a caller wins, and OpenAI's is the default. */
    private static final List<Dialect> ALL = List.of(ANTHROPIC, OPENAI, RESPONSES, GEMINI);
    /** The dialects served on one fixed path each ({@link Dialect#path()}); Gemini's paths name the model. */
    private static final List<Dialect> ON_ONE_PATH = List.of(ANTHROPIC, OPENAI, RESPONSES);

    private Dialects() {
    }

    /** Every registered dialect. */
    public static List<Dialect> all() {
        return ALL;
    }

    /** The dialect called {@code name}, case-insensitively. */
    public static Optional<Dialect> named(String name) {
        return ALL.stream().filter(dialect -> dialect.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The dialect to speak to a provider of {@code type} for a caller of dialect {@code caller}:
     * the caller's own when providers of that type speak it (the body then goes as sent), else
     * the dialect named like the type (the request is translated). Empty for an unknown type.
     */
    public static Optional<Dialect> forProvider(String type, Dialect caller) {
        return caller.providerType().equalsIgnoreCase(type) ? Optional.of(caller) : named(type);
    }

    /** The dialects whose callers are served on one fixed path each, {@link Dialect#path()}. */
    public static List<Dialect> onOnePath() {
        return ON_ONE_PATH;
    }

    /** The dialect served on the fixed gateway path {@code path}, if any ({@link #onOnePath()}). */
    public static Optional<Dialect> forPath(String path) {
        for (Dialect dialect : ON_ONE_PATH) { // asked for every request: no stream
            if (dialect.path().equals(path)) {
                return Optional.of(dialect);
            }
        }
        return Optional.empty();
    }

    /**
     * The dialect a caller speaks, judged from any path and its headers, so that every error —
     * an unknown path too — is answered in it; OpenAI's when nothing tells.
     */
    public static Dialect ofCaller(String path, MultiMap headers) {
        return ALL.stream().filter(dialect -> dialect.spokenBy(path, headers)).findFirst().orElse(OPENAI);
    }
}
