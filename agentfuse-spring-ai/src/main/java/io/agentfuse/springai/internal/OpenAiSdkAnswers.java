package io.agentfuse.springai.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.openai.core.ObjectMappers;
import com.openai.core.http.Headers;
import com.openai.errors.OpenAIServiceException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the answer out of the OpenAI Java SDK's {@link OpenAIServiceException} (what Spring AI's
 * {@code OpenAiChatModel} throws for a non-2xx answer: {@code RateLimitException},
 * {@code InternalServerException}, {@code UnauthorizedException}, ...). Stateless.
 */
public final class OpenAiSdkAnswers {

    private OpenAiSdkAnswers() {
    }

    /** The answer {@code error} carries, or {@code null} if it is not an OpenAI SDK service exception. */
    public static HttpAnswer read(Throwable error) {
        if (!(error instanceof OpenAIServiceException service)) {
            return null;
        }
        Headers headers = service.headers();
        Map<String, String> first = new LinkedHashMap<>();
        for (String name : headers.names()) {
            List<String> values = headers.values(name);
            if (!values.isEmpty()) {
                first.put(name, values.get(0));
            }
        }
        return new HttpAnswer(service.statusCode(), json(service), first);
    }

    /** The body as the provider sent it (JSON), so that its text reads like the answer. */
    private static String json(OpenAIServiceException service) {
        try {
            return ObjectMappers.jsonMapper().writeValueAsString(service.body());
        } catch (JsonProcessingException | RuntimeException e) {
            return String.valueOf(service.body());
        }
    }
}
