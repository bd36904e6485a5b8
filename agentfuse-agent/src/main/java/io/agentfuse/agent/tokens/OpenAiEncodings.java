package io.agentfuse.agent.tokens;

import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import java.util.Optional;

/** Which tiktoken encoding an OpenAI model uses, judged by the model family in its name. */
final class OpenAiEncodings {

    // Checked before the cl100k families, since "gpt-4o" also starts with "gpt-4".
    private static final List<String> O200K_FAMILIES = List.of(
            "gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "gpt-oss", "o1", "o3", "o4");
    private static final List<String> CL100K_FAMILIES = List.of(
            "gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002");

    private OpenAiEncodings() {
    }

    static Optional<EncodingType> forModel(ModelName name) {
        if (matchesFamily(name, O200K_FAMILIES)) {
            return Optional.of(EncodingType.O200K_BASE);
        }
        if (matchesFamily(name, CL100K_FAMILIES)) {
            return Optional.of(EncodingType.CL100K_BASE);
        }
        return Optional.empty();
    }

    // A family matches its exact name and any suffix that does not continue its number:
    // "o1" matches "o1-mini" but not "o10", "gpt-4" matches "gpt-4-turbo" but not "gpt-40".
    private static boolean matchesFamily(ModelName name, List<String> families) {
        for (String family : families) {
            if (name.continues(family)) {
                return true;
            }
        }
        return false;
    }
}
