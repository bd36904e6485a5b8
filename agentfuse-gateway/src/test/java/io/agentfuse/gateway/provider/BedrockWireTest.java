package io.agentfuse.gateway.provider;

import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.provider.bedrock.BedrockDialect;
import io.agentfuse.gateway.provider.bedrock.BedrockErrors;
import io.agentfuse.gateway.provider.bedrock.BedrockEventStreamReader;
import io.agentfuse.gateway.provider.bedrock.BedrockRequestSigner;
import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockStep;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertAnswerWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.assertStreamWithToolCall;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.hello;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.read;
import static io.agentfuse.gateway.provider.ProviderMocksOnTheWire.toolAnswer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bedrock's codec and the SigV4 signer against the provider mock over loopback HTTP: a Converse request the
 * signer signed is answered and read, its event stream is read from binary frames cut anywhere, and
 * Bedrock's exceptions are told apart.
 */
class BedrockWireTest {

    @RegisterExtension
    final ProviderMocksOnTheWire wire = new ProviderMocksOnTheWire();

    private HttpResponse<byte[]> converse(BedrockRequestSigner signer, boolean stream) throws Exception {
        String path = BedrockDialect.INSTANCE.upstreamPath("anthropic.claude-sonnet-4-5-v1:0", stream);
        byte[] body = BedrockDialect.INSTANCE.writeRequest(hello(stream), "ignored").encode().getBytes();
        Map<String, String> headers = new HashMap<>(Map.of("content-type", "application/json"));
        headers.putAll(signer.sign("POST", URI.create(wire.mock().anthropicBaseUrl() + path), headers, body).get(30, TimeUnit.SECONDS));
        return wire.post(path, headers, body);
    }

    private static BedrockRequestSigner mockKeys() {
        return BedrockRequestSigner.staticKeys("us-east-1", MockCredentials.AWS_ACCESS_KEY_ID, MockCredentials.AWS_SECRET_ACCESS_KEY, null);
    }

    @Test
    void aConverseRequestSignedByTheSignerIsAnsweredAndTheAnswerReadByTheCodec() throws Exception {
        wire.mock().script(toolAnswer());

        assertAnswerWithToolCall(read(BedrockDialect.INSTANCE, converse(mockKeys(), false)));
        assertThat(wire.mock().requestsFor("anthropic.claude-sonnet-4-5-v1:0")).hasSize(1);
    }

    @Test
    void aConverseStreamIsReadFromItsBinaryFramesIntoNeutralEvents() throws Exception {
        wire.mock().script(toolAnswer());

        HttpResponse<byte[]> answer = converse(mockKeys(), true);
        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        byte[] bytes = answer.body();
        for (int start = 0; start < bytes.length; start += 13) { // any cut between reads
            reader.read(Buffer.buffer(bytes).slice(start, Math.min(bytes.length, start + 13))).forEach(e -> events.addAll(decoder.decode(e)));
        }

        assertThat(answer.headers().firstValue("content-type")).contains(BedrockDialect.EVENT_STREAM);
        assertThat(reader.atFrameBoundary()).isTrue();
        assertStreamWithToolCall(events);
    }

    @Test
    void aThrottlingExceptionInsideTheStreamIsTheProvidersErrorAndRateLimited() throws Exception {
        wire.mock().script(MockStep.builder().streamError(429).streamErrorAfterChunks(1).build());

        BedrockEventStreamReader reader = new BedrockEventStreamReader();
        StreamDecoder decoder = BedrockDialect.INSTANCE.streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        reader.read(Buffer.buffer(converse(mockKeys(), true).body())).forEach(e -> events.addAll(decoder.decode(e)));

        StreamEvent.Error error = (StreamEvent.Error) events.get(events.size() - 1);
        assertThat(error.type()).isEqualTo("ThrottlingException");
        assertThat(BedrockDialect.INSTANCE.streamErrorOutcome(error.type())).isEqualTo(Outcome.RATE_LIMITED);
    }

    @Test
    void aSignatureMadeWithAnotherSecretIsRefusedWithBedrocksException() throws Exception {
        HttpResponse<byte[]> refused = converse(BedrockRequestSigner.staticKeys("us-east-1", MockCredentials.AWS_ACCESS_KEY_ID,
                "not-the-secret", null), false);

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(BedrockErrors.exception(refused.headers().firstValue("x-amzn-ErrorType").orElse(null), new String(refused.body())))
                .isEqualTo("InvalidSignatureException");
    }

    @Test
    void aScriptedModelNotReadyExceptionIsOverloaded() throws Exception {
        wire.mock().script(MockStep.builder().status(429).errorType("ModelNotReadyException").build());

        HttpResponse<byte[]> answer = converse(mockKeys(), false);

        assertThat(BedrockDialect.INSTANCE.errorOutcome(answer.statusCode(), MultiMap.caseInsensitiveMultiMap()
                .add("x-amzn-ErrorType", answer.headers().firstValue("x-amzn-ErrorType").orElse("")), new String(answer.body()))).isEqualTo(Outcome.OVERLOADED);
    }
}
