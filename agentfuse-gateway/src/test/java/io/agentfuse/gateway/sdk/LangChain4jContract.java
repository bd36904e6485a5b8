package io.agentfuse.gateway.sdk;

import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every LangChain4j model behind the gateway must see, configured as the README advises:
 * {@code maxRetries(0)} (LangChain4j does not read {@code x-should-retry}; the gateway retries
 * and falls back already). Every failure reaches the application at once, as one request. A
 * subclass says how its provider's models are built and which of {@link SdkGateway}'s models are its own.
 */
abstract class LangChain4jContract {

    SdkGateway gateway;

    @BeforeEach
    void start() {
        gateway = SdkGateway.onAStillClock(); // what a test opens stays open until its SDK call
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    /** A blocking model for {@code name}, with {@code maxRetries(0)}. */
    abstract ChatModel model(String name);

    /** A streaming model for {@code name}. */
    abstract StreamingChatModel streamingModel(String name);

    /** The model of this provider's family in {@link SdkGateway}, and its upstream name. */
    abstract String ownModel();

    abstract String ownUpstreamModel();

    /** A model of the other family, reached through this dialect (a cross-dialect route). */
    abstract String otherModel();

    /** The family's prefix of the {@code -slow} and {@code -long-open} models: {@code gpt} or {@code claude}. */
    abstract String family();

    /**
     * A model of the other family with a parameter only this dialect has, which the other cannot
     * carry; the gateway must refuse it naming the parameter returned by {@link #untranslatableField()}.
     */
    abstract ChatModel untranslatableModel();

    abstract String untranslatableField();

    /** The streamed answer's text, or the error LangChain4j reported. */
    private CompletableFuture<String> stream(String name) {
        CompletableFuture<String> result = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        streamingModel(name).chat("Hi", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                text.append(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                result.complete(text.toString());
            }

            @Override
            public void onError(Throwable error) {
                result.completeExceptionally(error);
            }
        });
        return result;
    }

    @Test
    void answersCompleteAndStreamed() throws Exception {
        assertThat(model(ownModel()).chat("Hi")).isEqualTo("Hello from the mock provider.");
        assertThat(stream(otherModel()).get(60, TimeUnit.SECONDS)).isEqualTo("Hello from the mock provider.");
    }

    @Test
    void circuitOpenWithALongRetryAfterIsRaisedAtOnce() {
        String longOpen = family() + "-long-open";
        gateway.trip(longOpen, longOpen);
        long before = gateway.requests();

        assertThatThrownBy(() -> model(longOpen).chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"circuit_open\"");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void circuitOpenWithAShortRetryAfterIsRaisedAtOnceToo() {
        gateway.trip(ownModel(), ownUpstreamModel());
        long before = gateway.requests();

        assertThatThrownBy(() -> model(ownModel()).chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"circuit_open\"");
        gateway.assertRequestsReceived(before + 1);
    }

    @Test
    void a502IsRaisedAsOneRequest() {
        gateway.upstreamFails();

        assertThatThrownBy(() -> model(ownModel()).chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"all_fallbacks_failed\"");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void a504IsRaisedAsOneRequest() {
        gateway.upstreamHangs();

        assertThatThrownBy(() -> model(family() + "-slow").chat("Hi"))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("\"timeout\"");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void anUntranslatableRequestIsA400NamingTheField() {
        assertThatThrownBy(() -> untranslatableModel().chat("Hi"))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("\"invalid_request\"")
                .hasMessageContaining(untranslatableField());
        gateway.assertRequestsReceived(1);
        assertThat(gateway.harness.mock.requests()).isEmpty();
    }

    @Test
    void givenAStreamCutAfterItsFirstContent_thenOnErrorIsCalledAfterThePartialTextAndOnCompleteResponseNever()
            throws Exception {
        // "Hel" comes alone; the connection to the provider drops after "lo ", a moment later.
        gateway.harness.mock.defaultStep(MockStep.builder().chunks("Hel", "lo ", "there").chunkDelayMs(300)
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(2).build());
        StringBuffer partials = new StringBuffer(); // appended on the client's thread, read on this one
        CompletableFuture<String> ended = new CompletableFuture<>();
        streamingModel(ownModel()).chat("Hi", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                partials.append(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                ended.complete("onCompleteResponse with " + response.aiMessage().text());
            }

            @Override
            public void onError(Throwable error) {
                ended.complete("onError");
            }
        });

        // Before the fix the gateway ended the chunked body cleanly after its error event, and the
        // OpenAI model, which does not read error events, completed with the partial text.
        assertThat(ended.get(60, TimeUnit.SECONDS)).isEqualTo("onError");
        assertThat(partials.toString()).as("the cut came after the first content").startsWith("Hel");
        gateway.assertRequestsReceived(1);
    }

    @Test
    void aBrokenStreamIsReportedAsAnErrorNotAsAShortAnswer() {
        gateway.streamsBreak();

        assertThatThrownBy(() -> stream(ownModel()).get(60, TimeUnit.SECONDS))
                .cause().isInstanceOf(LangChain4jException.class)
                // the client reports the gateway's error event or the closed connection, whichever it reads first
                .hasMessageMatching("closed|.*the stream from model claude-haiku-4 broke off.*|.*upstream_error.*");
        gateway.assertRequestsReceived(1);
    }
}
