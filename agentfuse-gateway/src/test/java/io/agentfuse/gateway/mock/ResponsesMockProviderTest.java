package io.agentfuse.gateway.mock;

import io.agentfuse.gateway.dialect.ChatResponse;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.provider.responses.ResponsesResponseCodec;
import io.agentfuse.gateway.provider.responses.ResponsesStreamDecoder;
import io.agentfuse.gateway.provider.responses.ResponsesStreamEncoder;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.LoopbackClient;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The mock's Responses API answers, fetched over loopback HTTP and read with the gateway's own Responses code. */
class ResponsesMockProviderTest extends RunningMock {

    private static JsonObject request(boolean stream) {
        return new JsonObject().put("model", "gpt-4.1-mini").put("input", "Hi").put("stream", stream);
    }

    /** Everything a streamed answer carried, as SSE events and as neutral events, and the decoder that read them. */
    private record Streamed(List<SseEvent> wire, List<StreamEvent> neutral, ResponsesStreamDecoder decoder) {
        String text() {
            return neutral.stream().filter(StreamEvent.TextDelta.class::isInstance)
                    .map(e -> ((StreamEvent.TextDelta) e).text()).collect(Collectors.joining());
        }

        StreamEvent last() {
            return neutral.get(neutral.size() - 1);
        }
    }

    /** Streams a request and decodes it as it arrives; a connection cut short ends the decoder like a clean end. */
    private Streamed stream() {
        List<SseEvent> wire = new ArrayList<>();
        List<StreamEvent> neutral = new ArrayList<>();
        ResponsesStreamDecoder decoder = new ResponsesStreamDecoder();
        SseParser parser = new SseParser(event -> {
            wire.add(event);
            neutral.addAll(decoder.decode(event));
        });
        HttpClient http = vertx.createHttpClient();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(mock.port())
                .setURI(MockProvider.RESPONSES_PATH).putHeader("content-type", "application/json")
                .putHeader("authorization", "Bearer sk-test");
        Promise<Void> done = Promise.promise();
        vertx.runOnContext(v -> http.request(options)
                .compose(request -> request.send(request(true).encode()))
                .onFailure(done::tryFail)
                .onSuccess(response -> {
                    response.handler(parser::feed);
                    response.exceptionHandler(failure -> done.tryComplete());
                    response.endHandler(end -> done.tryComplete());
                }));
        Await.result(done.future());
        parser.end();
        neutral.addAll(decoder.end());
        return new Streamed(wire, neutral, decoder);
    }

    @Test
    void aCompleteAnswerReadsAsAValidResponse() {
        mock.script(MockStep.builder().text("Bonjour").inputTokens(12).outputTokens(3).build());

        Reply reply = client.post(MockProvider.RESPONSES_PATH, request(false));
        ChatResponse answer = ResponsesResponseCodec.read(reply.body());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(answer.id()).startsWith("resp_");
        assertThat(answer.model()).isEqualTo("gpt-4.1-mini");
        assertThat(answer.content()).containsExactly(new ContentPart.Text("Bonjour"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(answer.usage()).isEqualTo(Usage.of(12, 3));
        assertThat(reply.json().getJsonObject("usage").getInteger("total_tokens")).isEqualTo(15);
    }

    @Test
    void aCompleteToolCallAnswerReadsAsFunctionCalls() {
        mock.script(MockStep.builder().text("").toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris"))
                .build());

        ChatResponse answer = ResponsesResponseCodec.read(client.post(MockProvider.RESPONSES_PATH, request(false)).body());

        assertThat(answer.content()).containsExactly(
                new ContentPart.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void aCompleteAnswerCutByLengthIsIncomplete() {
        mock.script(MockStep.builder().finishReason("length").build());

        Reply reply = client.post(MockProvider.RESPONSES_PATH, request(false));

        assertThat(reply.json().getString("status")).isEqualTo("incomplete");
        assertThat(ResponsesResponseCodec.read(reply.body()).finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void aScriptedErrorIsAnOpenAiErrorBody() {
        mock.script(MockStep.builder().status(429).retryAfter("2").build());

        Reply reply = client.post(MockProvider.RESPONSES_PATH, request(false));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("retry-after")).isEqualTo("2");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void aStreamedAnswerDecodesToTheScriptedTextAndUsage() {
        mock.script(MockStep.builder().chunks("Hel", "lo", " world").inputTokens(5).outputTokens(3).build());

        Streamed streamed = stream();

        assertThat(streamed.neutral().get(0)).isInstanceOf(StreamEvent.Start.class);
        assertThat(streamed.text()).isEqualTo("Hello world");
        assertThat(streamed.last()).isEqualTo(new StreamEvent.Finish(FinishReason.STOP, null, Usage.of(5, 3)));
        assertThat(streamed.decoder().usage()).isEqualTo(Usage.of(5, 3));
        assertThat(streamed.wire().stream().map(SseEvent::event).toList()).containsExactly("response.created",
                "response.in_progress", "response.output_item.added", "response.content_part.added",
                "response.output_text.delta", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed");
    }

    @Test
    void everyStreamedEventCarriesItsTypeAndTheNextSequenceNumber() {
        mock.script(MockStep.builder().chunks("a", "b").toolCall("call_1", "f", new JsonObject().put("x", 1)).build());

        List<SseEvent> wire = stream().wire();

        for (int i = 0; i < wire.size(); i++) {
            JsonObject data = new JsonObject(wire.get(i).data());
            assertThat(data.getString("type")).isEqualTo(wire.get(i).event());
            assertThat(data.getLong("sequence_number")).isEqualTo(i);
        }
    }

    @Test
    void aStreamedToolCallDecodesWithItsArguments() {
        mock.script(MockStep.builder().text("").toolCall("call_1", "get_weather", new JsonObject().put("city", "Paris"))
                .toolCall("call_2", "get_time", new JsonObject().put("zone", "CET")).build());

        Streamed streamed = stream();

        assertThat(streamed.text()).isEmpty();
        assertThat(streamed.neutral()).containsSubsequence(new StreamEvent.ToolCallStart(0, "call_1", "get_weather"),
                new StreamEvent.ToolCallStart(1, "call_2", "get_time"));
        String arguments = streamed.neutral().stream().filter(e -> e instanceof StreamEvent.ToolCallDelta d && d.index() == 0)
                .map(e -> ((StreamEvent.ToolCallDelta) e).arguments()).collect(Collectors.joining());
        assertThat(new JsonObject(arguments).getString("city")).isEqualTo("Paris");
        assertThat(((StreamEvent.Finish) streamed.last()).reason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(streamed.wire().stream().map(SseEvent::event)).doesNotContain("response.content_part.added");
    }

    @Test
    void aStreamCutByLengthEndsWithResponseIncomplete() {
        mock.script(MockStep.builder().chunks("Once ", "upon").finishReason("length").build());

        Streamed streamed = stream();

        assertThat(streamed.wire().get(streamed.wire().size() - 1).event()).isEqualTo("response.incomplete");
        assertThat(((StreamEvent.Finish) streamed.last()).reason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void aStreamBrokenMidWayDecodesAsAFailureNotAnAnswer() {
        mock.script(MockStep.builder().chunks("Hel", "lo").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        Streamed streamed = stream();

        assertThat(streamed.text()).isEqualTo("Hel");
        assertThat(streamed.last()).isEqualTo(
                StreamEvent.Error.cut("upstream stream ended before response.completed"));
        assertThat(streamed.neutral()).noneMatch(StreamEvent.Finish.class::isInstance);
        // A relayed stream is ended with an error event that continues the provider's numbering.
        JsonObject ending = new JsonObject(ResponsesStreamEncoder.errorEvent("server_error", "cut",
                streamed.decoder().nextSequenceNumber()).data());
        long lastRelayed = new JsonObject(streamed.wire().get(streamed.wire().size() - 1).data()).getLong("sequence_number");
        assertThat(ending.getLong("sequence_number")).isEqualTo(lastRelayed + 1);
    }

    @Test
    void theMockRecordsResponsesRequestsLikeAnyOther() {
        client.post(MockProvider.RESPONSES_PATH, request(false));

        assertThat(mock.requests()).hasSize(1);
        assertThat(mock.requests().get(0).path()).isEqualTo(MockProvider.RESPONSES_PATH);
    }
}
