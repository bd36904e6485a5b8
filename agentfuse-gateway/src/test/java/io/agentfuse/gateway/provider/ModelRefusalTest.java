package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.Dialect;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each dialect tells a provider's "no model of that name" (a retired model, a misspelt
 * {@code upstreamModel}, a missing Azure deployment) from its other refusals, on the bodies the
 * providers send.
 */
class ModelRefusalTest {

    private static final MultiMap NO_HEADERS = MultiMap.caseInsensitiveMultiMap();

    @Test
    void openAiAndTheResponsesApiSay404ModelNotFound() {
        String gone = "{\"error\":{\"message\":\"The model `gpt-4.5-preview` does not exist or you do not have access to it.\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}";
        assertThat(refuses(Dialects.OPENAI, 404, gone)).isTrue();
        assertThat(refuses(Dialects.RESPONSES, 404, gone)).isTrue();

        assertThat(refuses(Dialects.OPENAI, 404, "{\"error\":{\"message\":\"Invalid URL (POST /v1/chat/completion)\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}")).as("a wrong path").isFalse();
        assertThat(refuses(Dialects.OPENAI, 400, gone.replace("model_not_found", "invalid_value"))).isFalse();
        assertThat(refuses(Dialects.OPENAI, 404, "<html>Not Found</html>")).isFalse();
        assertThat(refuses(Dialects.OPENAI, 404, "")).isFalse();
    }

    @Test
    void anthropicSays404NotFoundErrorNamingTheModel() {
        assertThat(refuses(Dialects.ANTHROPIC, 404,
                "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-sonnet-4-20250514\"}}")).isTrue();

        assertThat(refuses(Dialects.ANTHROPIC, 404,
                "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"Not Found\"}}")).as("a wrong path").isFalse();
        assertThat(refuses(Dialects.ANTHROPIC, 400,
                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"model: field required\"}}")).isFalse();
    }

    @Test
    void googleSays404NotFoundOfAModelOnGeminiAndOnVertex() {
        assertThat(refuses(Dialects.GEMINI, 404, "{\"error\":{\"code\":404,\"message\":\"models/gemini-1.5-pro is not found for API "
                + "version v1beta, or is not supported for generateContent.\",\"status\":\"NOT_FOUND\"}}")).isTrue();
        String vertex = "{\"error\":{\"code\":404,\"message\":\"Publisher Model `projects/p/locations/us-east5/publishers/anthropic/"
                + "models/claude-sonnet-4@20250514` not found.\",\"status\":\"NOT_FOUND\"}}";
        assertThat(refuses(Dialects.VERTEX_ANTHROPIC, 404, vertex)).isTrue();
        assertThat(refuses(Dialects.VERTEX_GEMINI, 404, vertex)).isTrue();
        assertThat(refuses(Dialects.VERTEX_ANTHROPIC, 404,
                "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-x\"}}"))
                .as("the hosted model's own words").isTrue();

        assertThat(refuses(Dialects.GEMINI, 404, "{\"error\":{\"code\":404,\"message\":\"Requested entity was not found.\","
                + "\"status\":\"NOT_FOUND\"}}")).as("not a model").isFalse();
        assertThat(refuses(Dialects.GEMINI, 400, "{\"error\":{\"code\":400,\"message\":\"model is required\","
                + "\"status\":\"INVALID_ARGUMENT\"}}")).isFalse();
    }

    @Test
    void bedrockSaysResourceNotFoundOrAnInvalidModelIdentifier() {
        MultiMap notFound = MultiMap.caseInsensitiveMultiMap().add("x-amzn-ErrorType", "ResourceNotFoundException:http://internal.amazon.com/coral/com.amazon.bedrock/");
        assertThat(Dialects.BEDROCK.refusesModel(404, notFound, "{\"message\":\"This model version has reached the end of its life.\"}")).isTrue();
        assertThat(refuses(Dialects.BEDROCK, 400, "{\"__type\":\"ValidationException\",\"message\":\"The provided model identifier is invalid.\"}")).isTrue();

        assertThat(refuses(Dialects.BEDROCK, 400, "{\"__type\":\"ValidationException\",\"message\":\"Malformed input request\"}")).isFalse();
        assertThat(refuses(Dialects.BEDROCK, 403, "{\"__type\":\"AccessDeniedException\",\"message\":\"You don't have access to the model\"}"))
                .as("a refused key: credentials, not the model").isFalse();
    }

    @Test
    void azureSaysDeploymentNotFound() {
        assertThat(refuses(Dialects.AZURE, 404, "{\"error\":{\"code\":\"DeploymentNotFound\",\"message\":\"The API deployment for "
                + "this resource does not exist.\"}}")).isTrue();
        assertThat(refuses(Dialects.AZURE_RESPONSES, 404, "{\"error\":{\"code\":\"DeploymentNotFound\",\"message\":\"gone\"}}")).isTrue();

        assertThat(refuses(Dialects.AZURE, 404, "{\"error\":{\"code\":\"404\",\"message\":\"Resource not found\"}}")).isFalse();
    }

    private static boolean refuses(Dialect dialect, int status, String body) {
        return dialect.refusesModel(status, NO_HEADERS, body);
    }
}
