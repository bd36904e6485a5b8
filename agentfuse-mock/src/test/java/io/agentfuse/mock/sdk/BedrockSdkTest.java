package io.agentfuse.mock.sdk;

import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.StopReason;
import software.amazon.awssdk.services.bedrockruntime.model.ToolUseBlock;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The AWS SDK's BedrockRuntimeClient against the Bedrock mock: Converse answers, errors and refused signatures. */
class BedrockSdkTest extends RunningMockProvider {

    static final String MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

    private final List<AutoCloseable> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
    }

    static ConverseRequest hello() {
        return ConverseRequest.builder().modelId(MODEL)
                .messages(Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText("Hi")).build())
                .build();
    }

    BedrockRuntimeClient client(AwsCredentials credentials) {
        BedrockRuntimeClient client = BedrockRuntimeClient.builder()
                .endpointOverride(URI.create(mock.anthropicBaseUrl()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(config -> config.retryStrategy(retry -> retry.maxAttempts(1)))
                .build();
        clients.add(client);
        return client;
    }

    BedrockRuntimeClient client() {
        return client(AwsBasicCredentials.create(MockCredentials.AWS_ACCESS_KEY_ID, MockCredentials.AWS_SECRET_ACCESS_KEY));
    }

    @Test
    void givenAScriptedAnswerWhenTheSdkConversesThenItReadsTheTextStopReasonAndUsage() {
        mock.script(MockStep.builder().text("Hello from Bedrock").inputTokens(12).outputTokens(4).build());

        ConverseResponse answer = client().converse(hello());

        assertThat(answer.output().message().role()).isEqualTo(ConversationRole.ASSISTANT);
        assertThat(answer.output().message().content().get(0).text()).isEqualTo("Hello from Bedrock");
        assertThat(answer.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(answer.usage().inputTokens()).isEqualTo(12);
        assertThat(answer.usage().outputTokens()).isEqualTo(4);
        assertThat(answer.usage().totalTokens()).isEqualTo(16);
        assertThat(mock.requestsFor(MODEL)).hasSize(1);
    }

    @Test
    void givenScriptedToolCallsWhenTheSdkConversesThenItReadsThemAsToolUseBlocks() {
        mock.script(MockStep.builder().text("").toolCall("tooluse_1", "get_weather", new JsonObject().put("city", "Paris"))
                .build());

        ConverseResponse answer = client().converse(hello());

        ToolUseBlock toolUse = answer.output().message().content().get(0).toolUse();
        assertThat(toolUse.toolUseId()).isEqualTo("tooluse_1");
        assertThat(toolUse.name()).isEqualTo("get_weather");
        assertThat(toolUse.input()).isEqualTo(Document.mapBuilder().putString("city", "Paris").build());
        assertThat(answer.stopReason()).isEqualTo(StopReason.TOOL_USE);
    }

    @Test
    void givenTheContentFilterFinishReasonWhenTheSdkConversesThenTheStopReasonIsContentFiltered() {
        mock.script(MockStep.builder().finishReason("content_filter").build());

        assertThat(client().converse(hello()).stopReason()).isEqualTo(StopReason.CONTENT_FILTERED);
    }

    @ParameterizedTest
    @CsvSource({
            "429, , ThrottlingException",
            "429, ModelNotReadyException, ModelNotReadyException",
            "503, , ServiceUnavailableException",
            "400, , ValidationException",
            "408, , ModelTimeoutException",
            "500, , InternalServerException",
            "424, , ModelErrorException",
    })
    void givenAScriptedErrorWhenTheSdkConversesThenItRaisesBedrocksException(int status, String errorType, String exception) {
        mock.script(MockStep.builder().status(status).errorType(errorType).build());

        BedrockRuntimeException error = catchThrowableOfType(BedrockRuntimeException.class, () -> client().converse(hello()));

        assertThat(error.getClass().getSimpleName()).isEqualTo(exception);
        assertThat(error.statusCode()).isEqualTo(status);
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo(exception);
    }

    @Test
    void givenAWrongSecretWhenTheSdkConversesThenTheSignatureIsRefusedAndNoStepIsTaken() {
        mock.script(MockStep.builder().text("never sent").build());

        BedrockRuntimeException error = catchThrowableOfType(BedrockRuntimeException.class, () -> client(
                AwsBasicCredentials.create(MockCredentials.AWS_ACCESS_KEY_ID, "not-the-secret")).converse(hello()));

        assertThat(error.statusCode()).isEqualTo(403);
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException");
        assertThat(error.awsErrorDetails().errorMessage()).startsWith("The request signature we calculated does not match");
        assertThat(mock.pendingSteps()).isEqualTo(1);
    }

    @Test
    void givenAnUnknownAccessKeyWhenTheSdkConversesThenTheClientIsUnrecognized() {
        BedrockRuntimeException error = catchThrowableOfType(BedrockRuntimeException.class, () -> client(
                AwsBasicCredentials.create("AKIAUNKNOWN000000000", MockCredentials.AWS_SECRET_ACCESS_KEY)).converse(hello()));

        assertThat(error.statusCode()).isEqualTo(403);
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException");
    }
}
