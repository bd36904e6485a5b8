package io.agentfuse.mock;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The Amazon Bedrock Runtime routes of a {@link MockProvider}: {@code POST /model/{modelId}/converse}
 * and {@code POST /model/{modelId}/converse-stream}. Each request's SigV4 signature is checked first
 * ({@link AwsSignatureCheck}), then its body as Bedrock checks it: JSON ({@code SerializationException}),
 * a non-empty {@code messages} list whose first turn is the user's, no blank text block, in a turn or in
 * a tool result, a {@code toolConfig} when a turn holds a tool call or result, and what it refuses of
 * images and documents ({@link BedrockMediaCheck}) ({@code ValidationException}).
 * Only then does the request take a step of the script, keyed by the model id of its path.
 *
 * <p>Thread-safe.
 */
final class BedrockMockRoutes {

    private final MockProvider mock;
    private final AwsSignatureCheck signatures;
    private final MockDialect dialect = new BedrockMockDialect();

    BedrockMockRoutes(MockProvider mock, AwsSignatureCheck signatures) {
        this.mock = mock;
        this.signatures = signatures;
    }

    void mount(Router router) {
        router.postWithRegex("/model/([^/]+)/(converse|converse-stream)").handler(this::answer);
    }

    private void answer(RoutingContext ctx) {
        RequestJournal.Entry entry = mock.record(ctx);
        Buffer bytes = ctx.body().buffer();
        HttpServerRequest request = ctx.request();
        String authority = request.authority() == null ? "" : request.authority().toString();
        AwsSignatureCheck.Refusal refusal = signatures.check(request.method().name(), request.uri(), authority,
                request.headers(), bytes == null ? new byte[0] : bytes.getBytes());
        if (refusal != null) {
            refuse(ctx, refusal.status(), refusal.exception(), refusal.message());
            return;
        }
        JsonObject body = MockProvider.jsonBody(ctx);
        if (body == null) {
            refuse(ctx, 400, "SerializationException", BedrockErrors.message("SerializationException"));
            return;
        }
        String model = URLDecoder.decode(ctx.pathParam("param0"), StandardCharsets.UTF_8);
        String problem = problem(body, model);
        if (problem != null) {
            refuse(ctx, 400, "ValidationException", problem);
            return;
        }
        mock.play(ctx, entry, dialect, new MockCall(model, "converse-stream".equals(ctx.pathParam("param1")), false));
    }

    /** What Bedrock would refuse in a Converse body for {@code model}, or {@code null}. */
    private static String problem(JsonObject body, String model) {
        if (!(body.getValue("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            return "The model returned the following errors: messages: at least one message is required";
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.getValue(i) instanceof JsonObject message)
                    || !(message.getValue("content") instanceof JsonArray content) || content.isEmpty()
                    || !("user".equals(message.getValue("role")) || "assistant".equals(message.getValue("role")))) {
                return "1 validation error detected: Value at 'messages." + (i + 1) + "' failed to satisfy constraint: "
                        + "a message needs a role (user or assistant) and a content list of at least one block";
            }
        }
        if (!"user".equals(messages.getJsonObject(0).getString("role"))) {
            return "A conversation must start with a user message. Try again with a conversation that starts with a user message.";
        }
        String blank = blankText(messages);
        if (blank != null) {
            return blank;
        }
        String media = BedrockMediaCheck.problem(messages, model);
        if (media != null) {
            return media;
        }
        JsonObject inference = body.getValue("inferenceConfig") instanceof JsonObject config ? config : new JsonObject();
        String sampling = AnthropicSamplingCheck.problem(model, inference.getValue("temperature"), inference.getValue("topP"));
        if (sampling != null) {
            return "The model returned the following errors: " + sampling;
        }
        boolean toolBlocks = messages.stream().map(JsonObject.class::cast).flatMap(message -> message.getJsonArray("content").stream())
                .anyMatch(block -> block instanceof JsonObject object && (object.containsKey("toolUse") || object.containsKey("toolResult")));
        return toolBlocks && !(body.getValue("toolConfig") instanceof JsonObject)
                ? "The toolConfig field must be defined when using toolUse and toolResult content blocks." : null;
    }

    /** Bedrock refuses a text block that is empty or only white space, a tool result's too. */
    private static String blankText(JsonArray messages) {
        for (int i = 0; i < messages.size(); i++) {
            JsonArray content = messages.getJsonObject(i).getJsonArray("content");
            for (int j = 0; j < content.size(); j++) {
                String at = "messages." + i + ".content." + j;
                if (!(content.getValue(j) instanceof JsonObject block)) {
                    continue;
                }
                if (block.getValue("text") instanceof String text && text.isBlank()) {
                    return "The text field in the ContentBlock object at " + at + " is blank. Add text to the text field, and try again.";
                }
                JsonArray result = block.getValue("toolResult") instanceof JsonObject toolResult
                        && toolResult.getValue("content") instanceof JsonArray given ? given : new JsonArray();
                for (int k = 0; k < result.size(); k++) {
                    if (result.getValue(k) instanceof JsonObject part && part.getValue("text") instanceof String text
                            && text.isBlank()) {
                        return "The text field in the ToolResultContentBlock object at " + at + ".toolResult.content." + k
                                + " is blank. Add text to the text field, and try again.";
                    }
                }
            }
        }
        return null;
    }

    private static void refuse(RoutingContext ctx, int status, String exception, String message) {
        MockResponder.answerAtOnce(ctx.request(), status, BedrockErrors.headers(exception), new JsonObject().put("message", message));
    }
}
