package io.agentfuse.gateway.mock;

import io.agentfuse.mock.*;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.sse.SseParser;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.LoopbackClient;
import io.agentfuse.gateway.testing.LoopbackClient.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MockProviderTest extends RunningMock {

    private static JsonObject openAiRequest(String model) {
        return new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private static JsonObject anthropicRequest(String model) {
        return openAiRequest(model).put("max_tokens", 100);
    }

    private static List<SseEvent> events(String body) {
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        parser.feed(Buffer.buffer(body));
        parser.end();
        return events;
    }

    @Test
    void answersOpenAiChatCompletionWhenNothingIsScripted() {
        Reply reply = client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));

        assertThat(reply.status()).isEqualTo(200);
        JsonObject body = reply.json();
        assertThat(body.getString("object")).isEqualTo("chat.completion");
        assertThat(body.getString("model")).isEqualTo("gpt-4o-mini");
        JsonObject choice = body.getJsonArray("choices").getJsonObject(0);
        assertThat(choice.getJsonObject("message").getString("content")).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(choice.getString("finish_reason")).isEqualTo("stop");
        assertThat(body.getJsonObject("usage").getInteger("total_tokens"))
                .isEqualTo(body.getJsonObject("usage").getInteger("prompt_tokens")
                        + body.getJsonObject("usage").getInteger("completion_tokens"));
    }

    @Test
    void answersAnthropicMessageWithScriptedUsage() {
        mock.script(MockStep.builder().text("Bonjour").inputTokens(42).outputTokens(7).build());

        JsonObject body = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5")).json();

        assertThat(body.getString("type")).isEqualTo("message");
        assertThat(body.getJsonArray("content").getJsonObject(0))
                .isEqualTo(new JsonObject().put("type", "text").put("text", "Bonjour"));
        assertThat(body.getString("stop_reason")).isEqualTo("end_turn");
        assertThat(body.getJsonObject("usage"))
                .isEqualTo(new JsonObject().put("input_tokens", 42).put("output_tokens", 7));
    }

    @Test
    void answersScriptedStatusWithRetryAfterHeaders() {
        mock.script(MockStep.builder().status(429).retryAfter("3").retryAfterMs("2500").build());

        Reply reply = client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));

        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.headers().get("retry-after")).isEqualTo("3");
        assertThat(reply.headers().get("retry-after-ms")).isEqualTo("2500");
        assertThat(reply.json().getJsonObject("error").getString("code")).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void answersAnthropic529WithOverloadedErrorBody() {
        mock.script(MockStep.builder().status(529).build());

        Reply reply = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-sonnet-4-6"));

        assertThat(reply.status()).isEqualTo(529);
        assertThat(reply.json()).isEqualTo(new JsonObject().put("type", "error")
                .put("error", new JsonObject().put("type", "overloaded_error").put("message", "Overloaded")));
    }

    @Test
    void repeatsStepForItsCountThenFallsBackToDefault() {
        mock.script(MockStep.builder().status(500).times(2).build());

        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statuses.add(client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini")).status());
        }

        assertThat(statuses).containsExactly(500, 500, 200);
    }

    @Test
    void usesConfiguredDefaultOnceScriptIsExhausted() {
        mock.defaultStep(MockStep.builder().status(503).build());

        Reply reply = client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().getJsonObject("error").getString("message")).contains("overloaded");
    }

    @Test
    void answersAfterScriptedDelay() {
        mock.script(MockStep.builder().delayMs(150).text("late but fine").build());

        Reply reply = client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));

        assertThat(reply.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("late but fine");
    }

    @Test
    void dropsConnectionWithoutAnswering() {
        mock.script(MockStep.builder().drop(MockStep.Drop.BEFORE_RESPONSE).build());

        Throwable failure = client.postFailure(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));

        assertThat(failure).hasMessageContaining("closed");
    }

    @Test
    void streamsOpenAiChunksWithUsageBeforeDone() {
        mock.script(MockStep.builder().chunks("Hel", "lo").inputTokens(5).outputTokens(2).build());
        JsonObject request = openAiRequest("gpt-4o-mini").put("stream", true)
                .put("stream_options", new JsonObject().put("include_usage", true));

        Reply reply = client.post(MockProvider.OPENAI_PATH, request);

        assertThat(reply.headers().get("content-type")).isEqualTo("text/event-stream");
        List<SseEvent> events = events(reply.body());
        assertThat(events.get(events.size() - 1)).isEqualTo(SseEvent.DONE);
        List<JsonObject> chunks = events.subList(0, events.size() - 1).stream().map(e -> new JsonObject(e.data())).toList();
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.getString("object")).isEqualTo("chat.completion.chunk"));
        StringBuilder text = new StringBuilder();
        chunks.stream().flatMap(c -> c.getJsonArray("choices").stream()).map(c -> ((JsonObject) c).getJsonObject("delta"))
                .filter(d -> d.getString("content") != null).forEach(d -> text.append(d.getString("content")));
        assertThat(text).hasToString("Hello");
        JsonObject last = chunks.get(chunks.size() - 1);
        assertThat(last.getJsonArray("choices")).isEmpty();
        assertThat(last.getJsonObject("usage").getInteger("prompt_tokens")).isEqualTo(5);
        assertThat(chunks.get(chunks.size() - 2).getJsonArray("choices").getJsonObject(0).getString("finish_reason"))
                .isEqualTo("stop");
    }

    @Test
    void streamsAnthropicEventsInProtocolOrder() {
        mock.script(MockStep.builder().chunks("Hel", "lo").outputTokens(2).build());

        Reply reply = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5").put("stream", true));

        List<SseEvent> events = events(reply.body());
        assertThat(events).extracting(SseEvent::event).containsExactly("message_start", "content_block_start", "ping",
                "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
        assertThat(events).allSatisfy(e -> assertThat(new JsonObject(e.data()).getString("type")).isEqualTo(e.event()));
        JsonObject messageDelta = new JsonObject(events.get(6).data());
        assertThat(messageDelta.getJsonObject("delta").getString("stop_reason")).isEqualTo("end_turn");
        assertThat(messageDelta.getJsonObject("usage").getInteger("output_tokens")).isEqualTo(2);
    }

    @Test
    void streamsAnthropicToolUseAsInputJsonDeltas() {
        JsonObject arguments = new JsonObject().put("city", "Paris");
        mock.script(MockStep.builder().text("").toolCall("toolu_1", "get_weather", arguments).build());

        Reply reply = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5").put("stream", true));

        StringBuilder json = new StringBuilder();
        events(reply.body()).stream().map(e -> new JsonObject(e.data()))
                .filter(d -> "content_block_delta".equals(d.getString("type")))
                .map(d -> d.getJsonObject("delta"))
                .filter(d -> "input_json_delta".equals(d.getString("type")))
                .forEach(d -> json.append(d.getString("partial_json")));
        assertThat(new JsonObject(json.toString())).isEqualTo(arguments);
    }

    @Test
    void closesConnectionMidStream() {
        mock.script(MockStep.builder().chunks("a", "b", "c").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        Throwable failure = client.postFailure(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini").put("stream", true));

        assertThat(failure).hasMessageContaining("closed");
    }

    @Test
    void recordsRequestsWithHeadersAndBody() {
        client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5"));

        JsonArray requests = client.get("/_mock/requests").json().getJsonArray("requests");

        assertThat(requests).hasSize(1);
        JsonObject recorded = requests.getJsonObject(0);
        assertThat(recorded.getString("method")).isEqualTo("POST");
        assertThat(recorded.getString("path")).isEqualTo(MockProvider.ANTHROPIC_PATH);
        assertThat(recorded.getJsonObject("headers").getString("content-type")).isEqualTo("application/json");
        assertThat(recorded.getJsonObject("body").getString("model")).isEqualTo("claude-haiku-4-5");
        assertThat(recorded.getString("receivedAt")).isNotBlank();
        assertThat(recorded.getBoolean("clientDisconnected")).isFalse();
    }

    @Test
    void scriptsStepsPerModelOverHttp() {
        client.post("/_mock/script", new JsonObject().put("model", "claude-sonnet-4-6")
                .put("steps", new JsonArray().add(new JsonObject().put("status", 529))));

        int otherModel = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5")).status();
        int scriptedModel = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-sonnet-4-6")).status();

        assertThat(otherModel).isEqualTo(200);
        assertThat(scriptedModel).isEqualTo(529);
    }

    @Test
    void scriptsStepsPerPathOverHttp() {
        client.post("/_mock/script", new JsonObject().put("path", MockProvider.OPENAI_PATH)
                .put("steps", new JsonArray().add(new JsonObject().put("status", 502))));

        int anthropic = client.post(MockProvider.ANTHROPIC_PATH, anthropicRequest("claude-haiku-4-5")).status();
        int openAi = client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini")).status();

        assertThat(anthropic).isEqualTo(200);
        assertThat(openAi).isEqualTo(502);
    }

    @Test
    void resetForgetsScriptAndRecordedRequests() {
        client.post("/_mock/script", new JsonArray().add(new JsonObject().put("status", 500)));
        client.post(MockProvider.OPENAI_PATH, openAiRequest("gpt-4o-mini"));
        client.post("/_mock/script", new JsonArray().add(new JsonObject().put("status", 500)));

        client.post("/_mock/reset", "");

        assertThat(mock.pendingSteps()).isZero();
        assertThat(client.get("/_mock/requests").json().getJsonArray("requests")).isEmpty();
    }

    @Test
    void rejectsUnknownStepFieldNamingIt() {
        Reply reply = client.post("/_mock/script", new JsonArray().add(new JsonObject().put("statsu", 500)));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getString("error")).contains("statsu");
    }

    @Test
    void rejectsInvalidStepValueNamingIt() {
        Reply reply = client.post("/_mock/script", new JsonArray().add(new JsonObject().put("times", 0)));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().getString("error")).isEqualTo("times must be >= 1, but was 0");
    }
}
