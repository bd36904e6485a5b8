package io.agentfuse.gateway.provider.responses;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * What of a Responses request refers to state the provider stores by id: {@code previous_response_id},
 * {@code conversation} and {@code item_reference} input items. The provider keeps that state under
 * the API key it was made with, and behind the gateway that key is the gateway's, shared by every
 * caller: forwarded as is, such an id would let one caller continue (and so read) another's
 * conversation. The gateway therefore forwards these requests only to a provider whose
 * configuration allows it ({@code providers.<name>.storedResponses: true}), as LiteLLM refuses ids
 * whose owner it cannot tell. Stateless.
 */
public final class ResponsesStoredState {

    private ResponsesStoredState() {
    }

    /** The first field of {@code body} that refers to stored state, described for an error; empty when none does. */
    public static Optional<String> referenceIn(JsonObject body) {
        if (body.getValue("previous_response_id") != null) {
            return Optional.of("previous_response_id");
        }
        if (body.getValue("conversation") != null) {
            return Optional.of("conversation");
        }
        if (body.getValue("input") instanceof JsonArray items) {
            for (int i = 0; i < items.size(); i++) {
                if (items.getValue(i) instanceof JsonObject item && "item_reference".equals(item.getValue("type"))) {
                    return Optional.of("input[" + i + "] (an item_reference)");
                }
            }
        }
        return Optional.empty();
    }

    /** Why a request with {@code reference} is not sent to provider {@code provider}. */
    public static String refusal(String reference, String provider) {
        return reference + " refers to state that provider " + provider + " stores under the gateway's key,"
                + " which every caller of the gateway shares; set providers." + provider + ".storedResponses: true"
                + " to forward such requests (only where the gateway's callers may see each other's conversations),"
                + " or send the whole conversation as input";
    }
}
