package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.provider.anthropic.AnthropicDialect;
import io.agentfuse.gateway.provider.azure.AzureDialect;
import io.agentfuse.gateway.provider.bedrock.BedrockDialect;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.agentfuse.gateway.provider.openai.OpenAiDialect;
import io.agentfuse.gateway.provider.responses.ResponsesDialect;
import io.agentfuse.gateway.provider.vertex.VertexAnthropicDialect;
import io.agentfuse.gateway.provider.vertex.VertexGeminiDialect;
import io.vertx.core.MultiMap;

import java.util.List;
import java.util.Optional;

/**
 * The provider dialects the gateway speaks, registered here once: each caller dialect gets its
 * endpoint ({@link #all()}), and every dialect is spoken to the providers whose configured
 * {@code type} is its {@link Dialect#providerType()} ({@link #forProvider}). The provider-only
 * dialects (Bedrock, Vertex AI, Azure) are spoken to providers and never taken from callers; Gemini is both.
 * Adding a dialect is a package beside {@code openai} and {@code anthropic} plus one entry in
 * {@link #ALL} (callers) or {@link #PROVIDER_ONLY}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * Dialect dialect = Dialects.named("anthropic").orElseThrow();
 * Dialect upstream = Dialects.forProvider("openai", Dialects.RESPONSES, "gpt-4.1").orElseThrow(); // RESPONSES
 * Dialect vertex = Dialects.forProvider("vertex", Dialects.OPENAI, "claude-sonnet-4@20250514").orElseThrow(); // vertex-anthropic
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

    /** Amazon Bedrock's Converse API, spoken to {@code bedrock} providers. */
    public static final Dialect BEDROCK = BedrockDialect.INSTANCE;
    /** Gemini models on Vertex AI, spoken to {@code vertex} providers. */
    public static final Dialect VERTEX_GEMINI = VertexGeminiDialect.INSTANCE;
    /** Anthropic models on Vertex AI, spoken to {@code vertex} providers. */
    public static final Dialect VERTEX_ANTHROPIC = VertexAnthropicDialect.INSTANCE;
    /** Chat Completions on Azure OpenAI, spoken to {@code azure} providers. */
    public static final Dialect AZURE = AzureDialect.CHAT;
    /** The Responses API on Azure OpenAI, spoken to {@code azure} providers for Responses callers. */
    public static final Dialect AZURE_RESPONSES = AzureDialect.RESPONSES;

    /** Every caller dialect; the first one that claims a caller wins, and OpenAI's is the default. */
    private static final List<Dialect> ALL = List.of(ANTHROPIC, OPENAI, RESPONSES, GEMINI);
    /** The dialects served on one fixed path each ({@link Dialect#path()}); Gemini's paths name the model. */
    private static final List<Dialect> ON_ONE_PATH = List.of(ANTHROPIC, OPENAI, RESPONSES);

    /** The dialects spoken only to providers. */
    private static final List<Dialect> PROVIDER_ONLY = List.of(BEDROCK, VERTEX_GEMINI, VERTEX_ANTHROPIC,
            AZURE, AZURE_RESPONSES);

    private Dialects() {
    }

    /** Every caller dialect (each has its endpoint). */
    public static List<Dialect> all() {
        return ALL;
    }

    /** The dialect called {@code name}, case-insensitively, caller or provider-only. */
    public static Optional<Dialect> named(String name) {
        Optional<Dialect> caller = ALL.stream().filter(dialect -> dialect.name().equalsIgnoreCase(name)).findFirst();
        return caller.isPresent() ? caller
                : PROVIDER_ONLY.stream().filter(dialect -> dialect.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The dialect to speak to a provider of {@code type} for its model {@code upstreamModel} and a
     * caller of dialect {@code caller}, among those of the type that {@linkplain Dialect#serves serve}
     * the model: the caller's own; else one that hosts the caller's wire format (a Responses caller on
     * Azure gets Azure's Responses); else the one named like the type; else the only one (Vertex AI's
     * Anthropic dialect for Claude models, its Gemini dialect for the others). Empty for an unknown type.
     */
    public static Optional<Dialect> forProvider(String type, Dialect caller, String upstreamModel) {
        List<Dialect> candidates = java.util.stream.Stream.concat(ALL.stream(), PROVIDER_ONLY.stream())
                .filter(dialect -> dialect.providerType().equalsIgnoreCase(type) && dialect.serves(upstreamModel))
                .toList();
        if (candidates.contains(caller)) {
            return Optional.of(caller);
        }
        for (Dialect candidate : candidates) {
            if (candidate instanceof ForwardingDialect hosted && hosted.wire() == caller) {
                return Optional.of(candidate);
            }
        }
        return candidates.stream().filter(dialect -> dialect.name().equalsIgnoreCase(type)).findFirst()
                .or(() -> candidates.stream().findFirst());
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
