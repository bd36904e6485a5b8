package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Random;

/** The requests the ladder's tests measure and compact: conversations of plain turns, and mixed ones of every part. */
final class LadderRequests {

    private LadderRequests() {
    }

    static ChatRequest requestAtAutoCompact(ContextTarget target) {
        ContextLadder measure = new ContextLadder(ContextConfig.defaults(), null, CompactionConfig.defaults(),
                new ManualClock(), new ManualClock());
        for (int turns = 2; turns <= 500; turns += 2) {
            ChatRequest request = conversation(turns, 40);
            if (measure.levelOf(request, target) == ContextLevel.AUTO_COMPACT) {
                return request;
            }
        }
        throw new IllegalStateException("no conversation reached AUTO_COMPACT");
    }

    static ChatRequest conversation(int turns, int wordsPerMessage) {
        JsonArray messages = new JsonArray().add(message("system", "You are a careful assistant."));
        for (int i = 0; i < turns; i++) {
            messages.add(message(i % 2 == 0 ? "user" : "assistant", "turn " + i + ": " + words(wordsPerMessage)));
        }
        if (turns % 2 == 0) {
            messages.add(message("user", "and now?"));
        }
        return request(messages);
    }

    static ChatRequest request(JsonArray messages) {
        return Dialects.OPENAI.parseRequest(new JsonObject().put("model", "gpt-4o").put("temperature", 0.3).put("messages", messages));
    }

    static JsonObject message(String role, String content) {
        return new JsonObject().put("role", role).put("content", content);
    }

    static String words(int count) {
        return "lorem ".repeat(count).trim();
    }

    static ChatRequest mixedRequest(Random random, int turns) {
        JsonArray messages = new JsonArray().add(message("system", text(random)));
        for (int i = 0; i < turns; i++) {
            String id = "call_" + i;
            messages.add(message("user", text(random)));
            messages.add(new JsonObject().put("role", "assistant").put("content", text(random))
                    .put("tool_calls", new JsonArray().add(new JsonObject().put("id", id).put("type", "function")
                            .put("function", new JsonObject().put("name", "read_file")
                                    .put("arguments", new JsonObject().put("path", text(random)).encode())))));
            messages.add(new JsonObject().put("role", "tool").put("tool_call_id", id).put("content", text(random)));
            messages.add(new JsonObject().put("role", "user").put("content", new JsonArray()
                    .add(new JsonObject().put("type", "text").put("text", text(random)))
                    .add(new JsonObject().put("type", "image_url")
                            .put("image_url", new JsonObject().put("url", "https://example.com/" + i + ".png")))));
        }
        return request(messages);
    }

    private static final String[] PIECES = {"the ", "don't ", "we'll ", "camelCaseName", "snake_case_name ", "    ",
        "\n\n", "\t", "if (a != b) { return x->y; }", "//~~##@@!!", "12345", "3.14159 ", "\u8fc1\u79fb\u8ba1\u5212",
        "\uD83D\uDE80\uD83D\uDD25", "caf\u00e9 ", "\u00fc\u00f6\u00e4", "<|endoftext|>", "'s", "ALLCAPS ", "a/b/c ",
        "\r\n", "  \n", "/\n/", "\u0000"};

    static String text(Random random) {
        StringBuilder text = new StringBuilder();
        int pieces = random.nextInt(40);
        for (int i = 0; i < pieces; i++) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
            if (random.nextInt(4) == 0) {
                text.append((char) (' ' + random.nextInt(95)));
            }
        }
        return text.toString();
    }
}
