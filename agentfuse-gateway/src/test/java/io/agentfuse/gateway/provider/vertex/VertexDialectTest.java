package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.provider.gemini.GeminiDialect;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Vertex AI: Gemini's and Anthropic's wire formats at Vertex's paths, with its body version, bearer tokens and errors. */
class VertexDialectTest {

    private static final VertexEndpoint ENDPOINT = new VertexEndpoint("my-project", "us-east5");

    private static JsonObject anthropicBody() {
        return new JsonObject().put("model", "claude-sonnet-4").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    @Test
    void modelsArePathsOfTheirPublisherAtTheLocationsEndpoint() {
        assertThat(ENDPOINT.modelPath("claude-sonnet-4-5@20250929", true)).isEqualTo(
                "/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
        assertThat(ENDPOINT.modelPath("gemini-2.5-pro", false))
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent");
        assertThat(ENDPOINT.modelPath("gemini-2.5-pro", true)).endsWith(":streamGenerateContent?alt=sse");
        assertThatThrownBy(() -> new VertexEndpoint("a/b", "x")).hasMessageContaining("project must be a project id, but was 'a/b'");
    }

    @Test
    void anAnthropicBodyForVertexNamesNoModelAndCarriesVertexsVersion() {
        ChatRequest fromOpenAi = Dialects.OPENAI.parseRequest(new JsonObject().put("model", "gpt-4.1")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))));
        ChatRequest fromAnthropic = Dialects.ANTHROPIC.parseRequest(anthropicBody());

        JsonObject translated = VertexAnthropicDialect.INSTANCE.writeRequest(fromOpenAi, "claude-sonnet-4-5@20250929");
        JsonObject same = VertexAnthropicDialect.INSTANCE.sameDialectRequest(ChatRequest.shallowCopy(fromAnthropic.received()),
                "claude-sonnet-4-5@20250929", false);

        for (JsonObject body : new JsonObject[] {translated, same}) {
            assertThat(body.containsKey("model")).isFalse();
            assertThat(body.getString("anthropic_version")).isEqualTo("vertex-2023-10-16");
            assertThat(body.getJsonArray("messages")).hasSize(1);
        }
        assertThat(fromAnthropic.received().getString("model")).isEqualTo("claude-sonnet-4");
    }

    @Test
    void anthropicOnVertexSendsATokenAndOnlyTheBetaHeader() {
        MultiMap caller = MultiMap.caseInsensitiveMultiMap().add("anthropic-version", "2023-06-01").add("anthropic-beta", "x-1");

        assertThat(VertexAnthropicDialect.INSTANCE.defaultHeaders()).isEmpty();
        assertThat(VertexAnthropicDialect.INSTANCE.forwardedHeaders(caller)).isEqualTo(Map.of("anthropic-beta", "x-1"));
        assertThat(VertexAnthropicDialect.INSTANCE.authHeaders("ya29.t")).isEqualTo(Map.of("authorization", "Bearer ya29.t"));
        assertThat(VertexGeminiDialect.INSTANCE.authHeaders("ya29.t")).isEqualTo(Map.of("authorization", "Bearer ya29.t"));
        assertThat(VertexGeminiDialect.INSTANCE.wire()).isSameAs(GeminiDialect.INSTANCE);
    }

    @Test
    void vertexsGoogleErrorsAndAnthropicsErrorsMapToOutcomes() {
        assertThat(VertexErrors.outcome(429, "{\"error\":{\"code\":429,\"message\":\"Quota exceeded\",\"status\":\"RESOURCE_EXHAUSTED\"}}"))
                .isEqualTo(Outcome.RATE_LIMITED);
        assertThat(VertexErrors.outcome(503, "{\"error\":{\"code\":503,\"status\":\"UNAVAILABLE\"}}")).isEqualTo(Outcome.OVERLOADED);
        assertThat(VertexErrors.outcome(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}"))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(VertexErrors.outcome(500, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}"))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(VertexErrors.outcome(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\"}}"))
                .isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(VertexAnthropicDialect.INSTANCE.errorOutcome(429, MultiMap.caseInsensitiveMultiMap(), "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\"}}"))
                .isEqualTo(Outcome.RATE_LIMITED);
    }
}
