package io.agentfuse.gateway.provider.vertex;

import java.util.Objects;

/**
 * Where a Vertex AI provider's models live: a Google Cloud {@code project} and a {@code location}
 * ({@code us-central1}, {@code us-east5}, or {@code global}), which make the model paths (the default
 * base URL is the configuration's, {@code ConfigDefaults.baseUrl}): {@code /v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}}.
 * Claude models ({@code claude-*}) are Anthropic's publisher, every other model Google's.
 *
 * <p>Immutable. {@code new VertexEndpoint("my-project", "us-east5").modelPath("claude-sonnet-4-5@20250929", true)}
 *
 * @param project  the project id
 * @param location the region, or {@code global}
 */
public record VertexEndpoint(String project, String location) {

    public VertexEndpoint {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(location, "location");
        if (project.isBlank() || project.contains("/")) {
            throw new IllegalArgumentException("project must be a project id, but was '" + project + "'");
        }
        if (location.isBlank() || location.contains("/")) {
            throw new IllegalArgumentException("location must be a region or global, but was '" + location + "'");
        }
    }

    /** The project and location of a {@code vertex} provider. */
    public static VertexEndpoint of(io.agentfuse.config.ProviderConfig provider) {
        return new VertexEndpoint(provider.cloud().project(), provider.cloud().location());
    }

    /** Whether {@code model} is published by Anthropic on Vertex AI (a {@code claude-*} model). */
    public static boolean isAnthropic(String model) {
        return model.startsWith("claude");
    }

    /**
     * The path of {@code model}'s generate method: {@code :generateContent} / {@code :streamGenerateContent?alt=sse}
     * for Google's models, {@code :rawPredict} / {@code :streamRawPredict} for Anthropic's.
     */
    public String modelPath(String model, boolean stream) {
        String method = isAnthropic(model) ? (stream ? "streamRawPredict" : "rawPredict")
                : (stream ? "streamGenerateContent?alt=sse" : "generateContent");
        return "/v1/projects/" + project + "/locations/" + location + "/publishers/"
                + (isAnthropic(model) ? "anthropic" : "google") + "/models/" + model + ":" + method;
    }
}
