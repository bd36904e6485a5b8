package io.agentfuse.mock.sdk;

import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlockDeltaEvent;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlockStartEvent;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamMetadataEvent;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamOutput;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.MessageStopEvent;
import software.amazon.awssdk.services.bedrockruntime.model.ModelStreamErrorException;
import software.amazon.awssdk.services.bedrockruntime.model.StopReason;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The AWS SDK's BedrockRuntimeAsyncClient against the Bedrock mock's ConverseStream: binary event streams it parses. */
class BedrockStreamSdkTest extends RunningMockProvider {

    private BedrockRuntimeAsyncClient client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    /** The events the SDK parsed, and how the stream ended. */
    private record Streamed(List<ConverseStreamOutput> events, Throwable failure) {
        String text() {
            return events.stream().filter(ContentBlockDeltaEvent.class::isInstance).map(ContentBlockDeltaEvent.class::cast)
                    .filter(delta -> delta.delta().text() != null).map(delta -> delta.delta().text())
                    .collect(Collectors.joining());
        }

        <T> List<T> of(Class<T> type) {
            return events.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    private Streamed converseStream() throws Exception {
        client = BedrockRuntimeAsyncClient.builder()
                .endpointOverride(URI.create(mock.anthropicBaseUrl()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        MockCredentials.AWS_ACCESS_KEY_ID, MockCredentials.AWS_SECRET_ACCESS_KEY)))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder())
                .overrideConfiguration(config -> config.retryStrategy(retry -> retry.maxAttempts(1)))
                .build();
        List<ConverseStreamOutput> events = new CopyOnWriteArrayList<>();
        ConverseStreamResponseHandler handler = ConverseStreamResponseHandler.builder().subscriber(events::add).build();
        ConverseStreamRequest request = ConverseStreamRequest.builder().modelId(BedrockSdkTest.MODEL)
                .messages(Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText("Hi")).build())
                .build();
        CompletableFuture<Void> done = client.converseStream(request, handler);
        try {
            done.get(30, TimeUnit.SECONDS);
            return new Streamed(List.copyOf(events), null);
        } catch (ExecutionException e) {
            return new Streamed(List.copyOf(events), e.getCause());
        }
    }

    @Test
    void givenAScriptedStreamWhenTheSdkStreamsThenItReadsEveryPieceTheStopReasonAndTheUsage() throws Exception {
        mock.script(MockStep.builder().chunks("Hel", "lo ", "Bedrock").inputTokens(9).outputTokens(3)
                .firstChunkDelayMs(20).build());

        Streamed streamed = converseStream();

        assertThat(streamed.failure()).isNull();
        assertThat(streamed.text()).isEqualTo("Hello Bedrock");
        assertThat(streamed.of(MessageStopEvent.class)).singleElement()
                .satisfies(stop -> assertThat(stop.stopReason()).isEqualTo(StopReason.END_TURN));
        ConverseStreamMetadataEvent metadata = streamed.of(ConverseStreamMetadataEvent.class).get(0);
        assertThat(metadata.usage().inputTokens()).isEqualTo(9);
        assertThat(metadata.usage().outputTokens()).isEqualTo(3);
    }

    @Test
    void givenScriptedToolCallsWhenTheSdkStreamsThenItReadsTheToolUseStartAndTheInputPieces() throws Exception {
        mock.script(MockStep.builder().text("Let me look.").toolCall("tooluse_9", "get_weather",
                new JsonObject().put("city", "Paris")).build());

        Streamed streamed = converseStream();

        ContentBlockStartEvent start = streamed.of(ContentBlockStartEvent.class).get(0);
        assertThat(start.contentBlockIndex()).isEqualTo(1);
        assertThat(start.start().toolUse().toolUseId()).isEqualTo("tooluse_9");
        assertThat(start.start().toolUse().name()).isEqualTo("get_weather");
        String input = streamed.of(ContentBlockDeltaEvent.class).stream().filter(delta -> delta.delta().toolUse() != null)
                .map(delta -> delta.delta().toolUse().input()).collect(Collectors.joining());
        assertThat(new JsonObject(input)).isEqualTo(new JsonObject().put("city", "Paris"));
        assertThat(streamed.text()).isEqualTo("Let me look.");
        assertThat(streamed.of(MessageStopEvent.class).get(0).stopReason()).isEqualTo(StopReason.TOOL_USE);
    }

    @Test
    void givenAnErrorInsideTheStreamWhenTheSdkStreamsThenItRaisesModelStreamErrorExceptionAfterThePiecesBefore()
            throws Exception {
        mock.script(MockStep.builder().chunks("one ", "two ", "three").streamError(500).errorType("ModelStreamErrorException")
                .streamErrorAfterChunks(2).build());

        Streamed streamed = converseStream();

        assertThat(streamed.text()).isEqualTo("one two ");
        assertThat(streamed.failure()).isInstanceOf(ModelStreamErrorException.class);
    }

    @Test
    void givenAThrottlingExceptionInsideTheStreamWhenTheSdkStreamsThenItRaisesThrottlingException() throws Exception {
        mock.script(MockStep.builder().streamError(429).streamErrorAfterChunks(0).build());

        assertThat(converseStream().failure()).isInstanceOf(ThrottlingException.class);
    }

    @Test
    void givenAStreamCutMidwayWhenTheSdkStreamsThenItFailsInsteadOfEndingCleanly() throws Exception {
        mock.script(MockStep.builder().chunks("a ", "b ", "c").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        Streamed streamed = converseStream();

        assertThat(streamed.failure()).isNotNull();
        assertThat(streamed.of(MessageStopEvent.class)).isEmpty();
    }

    @Test
    void givenBytesThatAreNotAnEventStreamWhenTheSdkStreamsThenItFails() throws Exception {
        mock.script(MockStep.builder().body("this is not an event stream frame at all").build());

        assertThat(converseStream().failure()).isNotNull();
    }

    @Test
    void givenAScriptedStatusWhenTheSdkStreamsThenItRaisesTheExceptionBeforeAnyEvent() throws Exception {
        mock.script(MockStep.builder().status(429).build());

        Streamed streamed = converseStream();

        assertThat(streamed.failure()).isInstanceOf(ThrottlingException.class);
        assertThat(streamed.events()).isEmpty();
        assertThat(catchThrowableOfType(ThrottlingException.class, () -> {
            throw streamed.failure();
        }).statusCode()).isEqualTo(429);
    }
}
