package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderRefusalTest {

    @Test
    void aRefusalComesAsItCameToACallerOfTheSameFamilyOfErrors() {
        assertThat(ProviderRefusal.readAsItCame(Dialects.OPENAI, refusal(Dialects.AZURE))).as("Azure answers as OpenAI").isTrue();
        assertThat(ProviderRefusal.readAsItCame(Dialects.RESPONSES, refusal(Dialects.OPENAI))).isTrue();
        assertThat(ProviderRefusal.readAsItCame(Dialects.ANTHROPIC, refusal(Dialects.ANTHROPIC))).isTrue();
        assertThat(ProviderRefusal.readAsItCame(Dialects.ANTHROPIC, UpstreamStatusException.builder(400).build()))
                .as("a provider not named: as it came").isTrue();

        assertThat(ProviderRefusal.readAsItCame(Dialects.ANTHROPIC, refusal(Dialects.GEMINI))).isFalse();
        assertThat(ProviderRefusal.readAsItCame(Dialects.OPENAI, refusal(Dialects.BEDROCK))).isFalse();
        assertThat(ProviderRefusal.readAsItCame(Dialects.GEMINI, refusal(Dialects.OPENAI))).isFalse();
    }

    @Test
    void anotherFamilysRefusalIsRewrittenInTheCallersDialectWithTheProvidersMessage() {
        UpstreamStatusException google = UpstreamStatusException.builder(400).provider("gemini", Dialects.GEMINI)
                .body("{\"error\":{\"code\":400,\"message\":\"Unknown name \\\"foo\\\"\",\"status\":\"INVALID_ARGUMENT\"}}").build();
        UpstreamStatusException anthropicNotFound = UpstreamStatusException.builder(404).provider("anthropic", Dialects.ANTHROPIC)
                .body("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-x\"}}").build();

        JsonObject forAnthropic = ProviderRefusal.rewritten(Dialects.ANTHROPIC, google);
        assertThat(forAnthropic.getString("type")).isEqualTo("error");
        assertThat(forAnthropic.getJsonObject("error").getString("type")).isEqualTo("invalid_request_error");
        assertThat(forAnthropic.getJsonObject("error").getString("message"))
                .isEqualTo("provider gemini refused the request: Unknown name \"foo\"");

        JsonObject forOpenAi = ProviderRefusal.rewritten(Dialects.OPENAI, anthropicNotFound);
        assertThat(forOpenAi.getJsonObject("error").getString("type")).isEqualTo("invalid_request_error");
        assertThat(forOpenAi.getJsonObject("error").getString("message")).isEqualTo("provider anthropic refused the request: model: claude-x");

        JsonObject forGoogle = ProviderRefusal.rewritten(Dialects.GEMINI, anthropicNotFound);
        assertThat(forGoogle.getJsonObject("error").getInteger("code")).isEqualTo(404);
        assertThat(forGoogle.getJsonObject("error").getString("status")).isEqualTo("NOT_FOUND");

        UpstreamStatusException googleNotFound = UpstreamStatusException.builder(404).provider("gemini", Dialects.GEMINI)
                .body("{\"error\":{\"code\":404,\"message\":\"models/x is not found\",\"status\":\"NOT_FOUND\"}}").build();
        assertThat(ProviderRefusal.rewritten(Dialects.ANTHROPIC, googleNotFound).getJsonObject("error").getString("type"))
                .isEqualTo("not_found_error");
    }

    private static UpstreamStatusException refusal(io.agentfuse.gateway.dialect.Dialect provider) {
        return UpstreamStatusException.builder(400).provider(provider.name(), provider).body("{}").build();
    }
}
