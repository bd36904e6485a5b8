package io.agentfuse.gateway.dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * The request that asks a provider to continue an answer another one broke off
 * ({@code models.<m>.streamContinuation}, docs/streams.md): the caller's conversation plus the
 * text already sent as the assistant's turn, and nothing more where the provider continues a
 * trailing assistant message by itself ({@link Dialect#continuesPrefilledAnswer}: a prefill,
 * no prompt added); elsewhere that turn is followed by {@link #INSTRUCTION}, a short user turn.
 *
 * <p>A prefill loses its trailing whitespace, which Anthropic refuses at the end of an assistant
 * turn: the model writes it again. Stateless.
 *
 * <pre>{@code
 * ChatRequest continued = ContinuationRequest.of(request, "The capital of France is", Dialects.ANTHROPIC);
 * }</pre>
 */
public final class ContinuationRequest {

    /** The user turn after the text sent, for a provider that does not continue a prefill. */
    public static final String INSTRUCTION = "Your answer above was cut off. Continue it exactly where it stops,"
            + " without repeating any of it and without any preamble.";

    private ContinuationRequest() {
    }

    /**
     * {@code request} with the text already {@code sent} to its caller as the assistant's last turn
     * (joined to an assistant turn the caller ended with itself), as a provider of {@code target}
     * continues it best.
     *
     * @throws UntranslatableException when the caller's dialect cannot write the longer conversation
     */
    public static ChatRequest of(ChatRequest request, String sent, Dialect target) {
        return of(request, sent, target, 0);
    }

    /**
     * {@link #of(ChatRequest, String, Dialect)} for a model of {@code contextWindow} tokens (0: not
     * known), whose limits the longer conversation is written to ({@link ChatRequest#withConversation(String, List, long)}).
     */
    public static ChatRequest of(ChatRequest request, String sent, Dialect target, long contextWindow) {
        boolean prefill = target.continuesPrefilledAnswer(request);
        String answer = prefill ? sent.stripTrailing() : sent;
        List<ChatMessage> messages = new ArrayList<>(request.messages().size() + 2);
        messages.addAll(request.messages());
        if (!answer.isEmpty()) { // else (an answer of whitespace alone) nothing to join
            messages.add(assistantTurn(messages, answer));
        }
        if (!prefill) {
            messages.add(new ChatMessage(ChatMessage.Role.USER, List.of(new ContentPart.Text(INSTRUCTION))));
        }
        return request.withConversation(request.system(), messages, contextWindow);
    }

    /** The assistant turn ending with {@code answer}: taken from {@code messages} when the caller ended with its own (a prefill). */
    private static ChatMessage assistantTurn(List<ChatMessage> messages, String answer) {
        ChatMessage last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
        if (last == null || last.role() != ChatMessage.Role.ASSISTANT) {
            return new ChatMessage(ChatMessage.Role.ASSISTANT, List.of(new ContentPart.Text(answer)));
        }
        // The caller prefilled the answer itself: what was sent follows its prefill.
        messages.remove(messages.size() - 1);
        List<ContentPart> content = new ArrayList<>(last.content());
        content.add(new ContentPart.Text(answer));
        return new ChatMessage(ChatMessage.Role.ASSISTANT, content);
    }
}
