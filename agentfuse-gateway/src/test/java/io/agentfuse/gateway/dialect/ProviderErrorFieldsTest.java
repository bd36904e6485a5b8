package io.agentfuse.gateway.dialect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderErrorFieldsTest {

    @Test
    void theFieldsAreReadFromEachProvidersErrorShape() {
        ProviderErrorFields openAi = ProviderErrorFields.of("{\"error\":{\"message\":\"gone\",\"type\":\"invalid_request_error\","
                + "\"param\":null,\"code\":\"model_not_found\"}}");
        assertThat(openAi).isEqualTo(new ProviderErrorFields("invalid_request_error", "model_not_found", null, "gone"));

        ProviderErrorFields google = ProviderErrorFields.of("[{\"error\":{\"code\":404,\"message\":\"models/x is not found\","
                + "\"status\":\"NOT_FOUND\"}}]");
        assertThat(google).as("Vertex's array of one; a numeric code is not the code")
                .isEqualTo(new ProviderErrorFields(null, null, "NOT_FOUND", "models/x is not found"));
        assertThat(google.messageHas("MODELS/")).isTrue();

        assertThat(ProviderErrorFields.of("{\"__type\":\"ValidationException\",\"message\":\"bad\"}"))
                .isEqualTo(new ProviderErrorFields("ValidationException", null, null, "bad"));
        assertThat(ProviderErrorFields.of("not json")).isEqualTo(new ProviderErrorFields(null, null, null, null));
        assertThat(ProviderErrorFields.of(null).messageHas("x")).isFalse();
    }

    @Test
    void aHostileBodyHasNoFieldsAndNeverThrows() {
        ProviderErrorFields none = new ProviderErrorFields(null, null, null, null);
        assertThat(ProviderErrorFields.of("[".repeat(100_000))).as("nesting past the parser's limit").isEqualTo(none);
        assertThat(ProviderErrorFields.of("{\"error\":{\"code\":1" + "0".repeat(2_000_000) + "}}")).as("a number of megabytes")
                .isEqualTo(none);
        assertThat(ProviderErrorFields.of("{\"error\":[1,2],\"message\":{\"a\":1}}")).isEqualTo(none);
        assertThat(ProviderErrorFields.wordsOf("\u0000".repeat(10_000))).hasSize(ProviderErrorFields.MAX_WORDS_CHARS + 1);
    }

    @Test
    void theWordsAreTheMessageOfEachProvidersErrorShapeElseTheBodysStart() {
        assertThat(ProviderErrorFields.wordsOf("{\"error\":{\"message\":\"max_tokens is too large\",\"type\":\"invalid_request_error\"}}"))
                .isEqualTo("max_tokens is too large");
        assertThat(ProviderErrorFields.wordsOf("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: x\"}}"))
                .isEqualTo("model: x");
        assertThat(ProviderErrorFields.wordsOf("[{\"error\":{\"code\":400,\"message\":\"Invalid JSON payload\",\"status\":\"INVALID_ARGUMENT\"}}]"))
                .as("Vertex's error as the one element of an array").isEqualTo("Invalid JSON payload");
        assertThat(ProviderErrorFields.wordsOf("{\"message\":\"Malformed input request\"}")).as("Bedrock").isEqualTo("Malformed input request");
        assertThat(ProviderErrorFields.wordsOf("{\"Message\":\"The security token is invalid\"}")).isEqualTo("The security token is invalid");
        assertThat(ProviderErrorFields.wordsOf("{\"error\":\"model not loaded\"}")).isEqualTo("model not loaded");
        assertThat(ProviderErrorFields.wordsOf("  Bad Request\n")).as("not JSON: the body's words").isEqualTo("Bad Request");
        assertThat(ProviderErrorFields.wordsOf("")).isEqualTo("no reason given");
        assertThat(ProviderErrorFields.wordsOf("x".repeat(2_000))).hasSize(ProviderErrorFields.MAX_WORDS_CHARS + 1).endsWith("…");
    }
}
