package io.agentfuse.gateway.provider.azure;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;

/**
 * Azure OpenAI's errors and what they mean for the breakers and retries. Azure answers
 * {@code {"error": {"code": "429", "message": "... Please retry after 1 second."}}} with
 * {@code retry-after}, which the retry honours like any 429 (RATE_LIMITED); a 503 ("The service is
 * temporarily unable to process your request") is capacity, OVERLOADED; a 408 TIMEOUT. The content
 * filter's refusal is a 400 with {@code code: content_filter}: the caller's prompt, a CLIENT_ERROR,
 * never retried nor fallen back from (another provider would be asked the same prompt). 401 and 403
 * refuse the gateway's own key or token.
 *
 * <p>Stateless and thread-safe.
 */
public final class AzureErrors {

    private AzureErrors() {
    }

    /** The outcome of an Azure error answer with {@code status} and {@code body}. */
    public static Outcome outcome(int status, String body) {
        if (status == 503) {
            return Outcome.OVERLOADED;
        }
        return OutcomeClassifier.ofStatus(status, body);
    }

    /** Whether an error answer is the content filter's refusal of the prompt. */
    public static boolean isContentFilter(int status, String body) {
        return status == 400 && body != null && body.contains("\"content_filter\"");
    }
}
