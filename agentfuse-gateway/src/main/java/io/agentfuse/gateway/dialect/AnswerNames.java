package io.agentfuse.gateway.dialect;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Names for an answer whose provider gives it none: Bedrock's Converse and ConverseStream name
 * neither the answer nor the model, yet an OpenAI or Anthropic caller reads both (an SDK keys a
 * stream's chunks by their {@code id}). Such an answer gets an id generated here, once per answer
 * (a stream's {@link StreamEvent.Start} carries it to every chunk), and the model the caller asked
 * for. A name the provider gave is kept.
 *
 * <p>Stateless and thread-safe. The ids are unique enough to tell answers apart, not secrets.
 */
final class AnswerNames {

    private AnswerNames() {
    }

    /** {@code start}, with a generated id and {@code callerModel} where the provider left them empty. */
    static StreamEvent.Start named(StreamEvent.Start start, String callerModel) {
        if (!start.id().isEmpty() && (!start.model().isEmpty() || callerModel == null)) {
            return start;
        }
        return new StreamEvent.Start(start.id().isEmpty() ? newId() : start.id(),
                start.model().isEmpty() && callerModel != null ? callerModel : start.model(), start.usage());
    }

    /** {@code response}, with a generated id and {@code callerModel} where the provider left them empty. */
    static ChatResponse named(ChatResponse response, String callerModel) {
        if (!response.id().isEmpty() && (!response.model().isEmpty() || callerModel == null)) {
            return response;
        }
        return new ChatResponse(response.id().isEmpty() ? newId() : response.id(),
                response.model().isEmpty() && callerModel != null ? callerModel : response.model(), response.created(),
                response.content(), response.finishReason(), response.stopSequence(), response.usage());
    }

    /** {@code gen-} and 24 random hex digits, as gateways name the answers they make up. */
    static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "gen-" + String.format("%016x%08x", random.nextLong(), random.nextInt());
    }
}
