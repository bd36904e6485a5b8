package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.context.ConversationMapper;
import io.agentfuse.gateway.http.JsonPieces;
import io.agentfuse.gateway.http.StrictJson;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a screenshot costs on its way through the neutral model: a 3.6 MB PNG (4.8 MB of base64)
 * read from a caller and written for a provider, in the caller's dialect and across. Within a wire
 * form (base64 apart from its media type: Anthropic, Gemini, Bedrock; a data URL: OpenAI) it is
 * never copied; between the two forms it is copied once, into the form the provider's wire needs.
 * Measured as the bytes the reading and writing thread allocates (the JSON encoding of the body,
 * the same whatever the model holds, is not part of it).
 */
class MediaCrossingAllocationTest {

    /** The base64 of a 1 280 × 800 PNG of 3.6 MB: its head, then bytes that do not compress. */
    private static final String SCREENSHOT = screenshot();
    private static final long ONE_COPY = SCREENSHOT.length(); // base64 is one byte a character in a String

    private static String screenshot() {
        ByteBuffer png = ByteBuffer.allocate(3_600_000);
        png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'})
                .putInt(1280).putInt(800);
        byte[] rest = new byte[png.remaining()];
        new Random(7).nextBytes(rest);
        return Base64.getEncoder().encodeToString(png.put(rest).array());
    }

    private static JsonObject anthropicBody(String model) {
        JsonObject image = new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                .put("media_type", "image/png").put("data", SCREENSHOT));
        return new JsonObject().put("model", model).put("max_tokens", 64).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray().add(image)
                        .add(new JsonObject().put("type", "text").put("text", "What does the screen say?")))));
    }

    private static JsonObject openAiBody(String model, String url) {
        return new JsonObject().put("model", model).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", new JsonArray()
                        .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject().put("url", url)))
                        .add(new JsonObject().put("type", "text").put("text", "What does the screen say?")))));
    }

    @Test
    void anAnthropicScreenshotCrossesToGeminiAndBedrockAsTheVeryStringTheCallerSent() {
        JsonObject body = anthropicBody("claude");

        Written gemini = written(() -> DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(body),
                Dialects.GEMINI, "gemini-2.5-pro"));
        Written bedrock = written(() -> DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(body),
                Dialects.BEDROCK, "anthropic.claude-sonnet-4-20250514-v1:0"));

        // (compared, not printed: a failure would print megabytes)
        assertThat(gemini.body().getJsonArray("contents").getJsonObject(0).getJsonArray("parts").getJsonObject(0)
                .getJsonObject("inlineData").getString("data") == SCREENSHOT).as("Gemini's data is the caller's string").isTrue();
        assertThat(bedrock.body().getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getJsonObject("image").getJsonObject("source").getString("bytes") == SCREENSHOT)
                .as("Bedrock's bytes are the caller's string").isTrue();
        assertThat(gemini.bytes()).as("bytes allocated to parse and write for Gemini").isLessThan(ONE_COPY / 4);
        assertThat(bedrock.bytes()).as("bytes allocated to parse and write for Bedrock").isLessThan(ONE_COPY / 4);
    }

    @Test
    void anAnthropicScreenshotIsCopiedOnlyIntoTheDataUrlThatOpenAisWireNeeds() {
        JsonObject body = anthropicBody("claude");

        Written own = written(() -> DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(body),
                Dialects.ANTHROPIC, "claude-sonnet-4-5"));
        Written openAi = written(() -> DialectTranslator.upstreamRequest(Dialects.ANTHROPIC.parseRequest(body),
                Dialects.OPENAI, "gpt-4.1"));

        assertThat(openAi.body().getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getJsonObject("image_url").getString("url").equals("data:image/png;base64," + SCREENSHOT))
                .as("OpenAI's image_url is the screenshot's data URL").isTrue();
        assertThat(own.bytes()).as("bytes allocated to parse and forward within Anthropic's dialect").isLessThan(ONE_COPY / 4);
        assertThat(openAi.bytes()).as("bytes allocated to parse and write for OpenAI").isLessThan(ONE_COPY * 5 / 4);
    }

    @Test
    void anOpenAiScreenshotIsCopiedOnlyIntoTheBase64ThatAnthropicsWireNeeds() {
        JsonObject body = openAiBody("gpt", "data:image/png;base64," + SCREENSHOT);

        Written own = written(() -> DialectTranslator.upstreamRequest(Dialects.OPENAI.parseRequest(body),
                Dialects.OPENAI, "gpt-4.1"));
        Written anthropic = written(() -> DialectTranslator.upstreamRequest(Dialects.OPENAI.parseRequest(body),
                Dialects.ANTHROPIC, "claude-sonnet-4-5"));

        assertThat(anthropic.body().getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(0)
                .getJsonObject("source").equals(new JsonObject().put("type", "base64").put("media_type", "image/png")
                        .put("data", SCREENSHOT))).as("Anthropic's source is the screenshot's base64").isTrue();
        assertThat(own.bytes()).as("bytes allocated to parse and forward within OpenAI's dialect").isLessThan(ONE_COPY / 4);
        assertThat(anthropic.bytes()).as("bytes allocated to parse and write for Anthropic").isLessThan(ONE_COPY * 5 / 4);
    }

    /**
     * A whole turn with a screenshot, as the gateway takes it from the caller's bytes to the bytes it
     * sends: decoded, read into the neutral model, carried to the context ladder's conversation,
     * written for the provider and encoded. Each of those costs at most one copy of the screenshot
     * (a string decoded, the ladder's raw block, the other wire form, the bytes sent): four in all
     * between the two wire forms, three within one: 19.2 and 14.4 MB for 4.8 MB of base64. Until
     * 2026-12 Jackson decoded the base64 into four times its size and the ladder's raw block cost
     * five more, 48 to 52.8 MB a turn (ten to eleven times).
     */
    @Test
    void aScreenshotTurnCostsOneCopyOfItsDataAStageInEveryDirection() {
        String anthropic = anthropicBody("claude").encode();
        String openAi = openAiBody("gpt", "data:image/png;base64," + SCREENSHOT).encode();
        record Direction(String body, Dialect caller, Dialect target, String model, long copies) {
        }
        List<Direction> directions = List.of(
                new Direction(anthropic, Dialects.ANTHROPIC, Dialects.OPENAI, "gpt-4.1", 4),
                new Direction(anthropic, Dialects.ANTHROPIC, Dialects.GEMINI, "gemini-2.5-pro", 3),
                new Direction(anthropic, Dialects.ANTHROPIC, Dialects.BEDROCK, "anthropic.claude-sonnet-4-20250514-v1:0", 3),
                new Direction(openAi, Dialects.OPENAI, Dialects.ANTHROPIC, "claude-sonnet-4-5", 4),
                new Direction(openAi, Dialects.OPENAI, Dialects.GEMINI, "gemini-2.5-pro", 4),
                new Direction(openAi, Dialects.OPENAI, Dialects.BEDROCK, "anthropic.claude-sonnet-4-20250514-v1:0", 4));

        for (Direction direction : directions) {
            Buffer received = Buffer.buffer(direction.body());
            long[] sent = new long[1];
            Written turn = written(() -> {
                ChatRequest request = direction.caller().parseRequest((JsonObject) StrictJson.decode(received));
                ConversationMapper.toConversation(request);
                JsonObject body = DialectTranslator.upstreamRequest(request, direction.target(), direction.model());
                sent[0] = JsonPieces.encode(body).length();
                return body;
            });

            assertThat(sent[0]).as("a body of the screenshot's size").isGreaterThan(ONE_COPY);
            assertThat(turn.bytes()).as("bytes allocated for a %s turn to %s", direction.caller().name(),
                    direction.target().name()).isLessThan(ONE_COPY * direction.copies() + ONE_COPY / 4);
        }
    }

    /** A body written, and the bytes this thread allocated to write it the second time (the first loads classes). */
    private record Written(JsonObject body, long bytes) {
    }

    private static Written written(Supplier<JsonObject> write) {
        write.get();
        long before = allocatedByThisThread();
        JsonObject body = write.get();
        return new Written(body, allocatedByThisThread() - before);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
