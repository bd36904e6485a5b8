package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.http.JsonShape;

import static io.agentfuse.gateway.http.JsonShape.Leaf.ANY;
import static io.agentfuse.gateway.http.JsonShape.Leaf.NUMBER;
import static io.agentfuse.gateway.http.JsonShape.Leaf.STRING;
import static io.agentfuse.gateway.http.JsonShape.array;
import static io.agentfuse.gateway.http.JsonShape.nonEmptyArray;
import static io.agentfuse.gateway.http.JsonShape.object;
import static io.agentfuse.gateway.http.JsonShape.optional;
import static io.agentfuse.gateway.http.JsonShape.required;

/**
 * The shapes of OpenAI's answers, each the one field list of both of its checks: a
 * {@code chat.completion} ({@link #ANSWER}: {@link OpenAiResponseCodec#check} and
 * {@link OpenAiAnswerScan}) and a {@code chat.completion.chunk} ({@link #CHUNK}:
 * {@link OpenAiStreamDecoder} and {@link OpenAiChunkScan}). The capture slots say where the scans
 * report what they read. Immutable.
 */
final class OpenAiShapes {

    /**
     * Capture slots: the usage's token counts, a chunk's number of choices, a choice's index and
     * finish reason, the lengths of its delta's content and refusal, and the usage's cached tokens.
     */
    static final int PROMPT_TOKENS = 0;
    static final int COMPLETION_TOKENS = 1;
    static final int CHOICES = 2;
    static final int INDEX = 3;
    static final int FINISH_REASON = 4;
    static final int CONTENT_LENGTH = 5;
    static final int REFUSAL_LENGTH = 6;
    static final int CACHED_TOKENS = 7;

    /**
     * A {@code usage} object: its token counts, an absent one read as 0, and of the prompt's those read
     * from the cache ({@code prompt_tokens_details.cached_tokens}, billed at a discount); the total and
     * the other details are not looked at. OpenAI sends the details on every answer, so the scans read
     * them rather than leave every answer to the tree.
     */
    static final JsonShape.Obj USAGE = object(
            optional("prompt_tokens", NUMBER).captured(PROMPT_TOKENS),
            optional("completion_tokens", NUMBER).captured(COMPLETION_TOKENS),
            optional("prompt_tokens_details", object(
                    optional("cached_tokens", NUMBER).captured(CACHED_TOKENS))));

    /** A {@code chat.completion}: at least one choice, each with a message whose content, refusal and tool calls have their kinds. */
    static final JsonShape.Obj ANSWER = object(
            required("choices", nonEmptyArray(object(
                    optional("finish_reason", STRING),
                    required("message", object(
                            optional("content", STRING),
                            optional("refusal", STRING),
                            optional("tool_calls", array(object(
                                    required("function", object(
                                            required("name", STRING),
                                            optional("arguments", STRING))))))))),
                    "the answer has no message")),
            optional("id", STRING),
            optional("model", STRING),
            optional("usage", USAGE));

    /**
     * One choice of a chunk: its index (absent: 0), finish reason and delta, whose tool calls the
     * decoder reads, and the reasoning that OpenAI-compatible servers of reasoning models stream
     * (DeepSeek's and vLLM's {@code reasoning_content}, OpenRouter's {@code reasoning}).
     */
    static final JsonShape.Obj CHOICE = object(
            optional("index", NUMBER).captured(INDEX),
            optional("finish_reason", STRING).captured(FINISH_REASON),
            optional("delta", object(
                    optional("content", STRING).measured(CONTENT_LENGTH),
                    optional("refusal", STRING).measured(REFUSAL_LENGTH),
                    optional("tool_calls", ANY).leftToTheTree(),
                    optional("reasoning_content", ANY).leftToTheTree(),
                    optional("reasoning", ANY).leftToTheTree())));

    /** A {@code chat.completion.chunk}; a provider's error in it is the decoder's to read. */
    static final JsonShape.Obj CHUNK = object(
            optional("id", STRING),
            optional("model", STRING),
            optional("choices", array(CHOICE)).captured(CHOICES),
            optional("usage", USAGE),
            optional("error", ANY).leftToTheTree());

    private OpenAiShapes() {
    }
}
