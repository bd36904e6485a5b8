package io.agentfuse.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import io.agentfuse.core.Outcome;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/** LangChain4j's exceptions, as LangChain4j's own exception mapper makes them, and their outcome kinds. */
class LangChain4jOutcomesTest {

    @Test
    void rateLimitsAreRateLimited() {
        assertThat(LangChain4jOutcomes.classify(new RateLimitException(new HttpException(429, "slow down"))))
                .isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void serverErrorsAreServerErrorsAndA529IsOverloaded() {
        assertThat(LangChain4jOutcomes.classify(new InternalServerException(new HttpException(500, "boom"))))
                .isEqualTo(Outcome.SERVER_ERROR);
        assertThat(LangChain4jOutcomes.classify(new InternalServerException(new HttpException(529, "{}"))))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(LangChain4jOutcomes.classify(new InternalServerException(new HttpException(503, "Overloaded"))))
                .isEqualTo(Outcome.OVERLOADED);
        assertThat(LangChain4jOutcomes.classify(new InternalServerException("no status"))).isEqualTo(Outcome.SERVER_ERROR);
    }

    @Test
    void timeoutsAreTimeouts() {
        assertThat(LangChain4jOutcomes.classify(new TimeoutException("read timed out"))).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void authenticationFailuresAreErrorsThatFallBackButAreNotRetried() {
        Outcome outcome = LangChain4jOutcomes.classify(new AuthenticationException(new HttpException(401, "bad key")));

        assertThat(outcome).isEqualTo(Outcome.ERROR);
        assertThat(outcome.isRetryableByDefault()).isFalse();
        assertThat(outcome.isFallbackByDefault()).isTrue();
    }

    @Test
    void aModelItsProviderDoesNotServeIsTheApplicationsConfigurationAndFallsBack() {
        Outcome outcome = LangChain4jOutcomes.classify(new ModelNotFoundException(new HttpException(404,
                "{\"error\":{\"code\":\"model_not_found\",\"message\":\"The model `gpt-5` does not exist\"}}")));

        assertThat(outcome).isEqualTo(Outcome.ERROR);
        assertThat(outcome.isRetryableByDefault()).isFalse();
        assertThat(outcome.isFallbackByDefault()).isTrue();
    }

    @Test
    void theCallersMistakesAreClientErrors() {
        assertThat(LangChain4jOutcomes.classify(new InvalidRequestException(new HttpException(400, "bad"))))
                .isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(LangChain4jOutcomes.classify(new ContentFilteredException("filtered"))).isEqualTo(Outcome.CLIENT_ERROR);
        assertThat(LangChain4jOutcomes.classify(new ToolArgumentsException("bad json"))).isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void anUnmappedHttpStatusIsJudgedByItsStatus() {
        assertThat(LangChain4jOutcomes.classify(new HttpException(502, "bad gateway"))).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(LangChain4jOutcomes.classify(new HttpException(403, "forbidden"))).isEqualTo(Outcome.ERROR);
        assertThat(LangChain4jOutcomes.classify(new HttpException(409, "conflict"))).isEqualTo(Outcome.CLIENT_ERROR);
    }

    @Test
    void connectionFailuresAreConnectionErrorsThroughTheirWrappers() {
        assertThat(LangChain4jOutcomes.classify(new UnresolvedModelServerException("no host"))).isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(LangChain4jOutcomes.classify(new CompletionException(new LangChain4jException(new ConnectException("refused")))))
                .isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void anythingElseIsAnError() {
        assertThat(LangChain4jOutcomes.classify(new LangChain4jException("odd"))).isEqualTo(Outcome.ERROR);
        assertThat(LangChain4jOutcomes.classify(new IllegalStateException("odd"))).isEqualTo(Outcome.ERROR);
    }

    @Test
    void tokensAreTheResponsesTotalOrInputPlusOutput() {
        ChatResponse total = ChatResponse.builder().aiMessage(AiMessage.from("a")).tokenUsage(new TokenUsage(3, 4, 9)).build();
        ChatResponse parts = ChatResponse.builder().aiMessage(AiMessage.from("a")).tokenUsage(new TokenUsage(3, 4, null)).build();
        ChatResponse none = ChatResponse.builder().aiMessage(AiMessage.from("a")).build();

        assertThat(LangChain4jOutcomes.tokens(total)).isEqualTo(9);
        assertThat(LangChain4jOutcomes.tokens(parts)).isEqualTo(7);
        assertThat(LangChain4jOutcomes.tokens(none)).isZero();
        assertThat(LangChain4jOutcomes.tokens("not a response")).isZero();
    }

    /** Regression: an Anthropic answer's tokens left out the input its cache served or kept (Anthropic tells it apart). */
    @Test
    void tokensCountTheInputAnthropicsCacheServedOrKept() {
        ChatResponse cached = ChatResponse.builder().aiMessage(AiMessage.from("a")).tokenUsage(AnthropicTokenUsage.builder()
                .inputTokenCount(3_000).cacheReadInputTokens(95_000).cacheCreationInputTokens(2_000).outputTokenCount(1_000)
                .build()).build();

        assertThat(LangChain4jOutcomes.tokens(cached)).isEqualTo(101_000);
    }
}
