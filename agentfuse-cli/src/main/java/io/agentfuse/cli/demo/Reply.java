package io.agentfuse.cli.demo;

import io.vertx.core.json.JsonObject;

import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * One answer of the gateway, as the demo's agent saw it.
 *
 * @param status    the HTTP status
 * @param response  the whole response, for headers
 * @param body      the body, parsed; empty for a body that is not a JSON object
 */
record Reply(int status, HttpResponse<String> response, JsonObject body) {

    /** The first value of header {@code name}, or "-" when absent. */
    String header(String name) {
        return response.headers().firstValue(name).orElse("-");
    }

    /** The header {@code name}, if the answer has it. */
    Optional<String> optionalHeader(String name) {
        return response.headers().firstValue(name);
    }

    /** The answer's text (OpenAI dialect), or the error's message. */
    String text() {
        if (body.containsKey("error")) {
            return body.getJsonObject("error").getString("message", "");
        }
        var choices = body.getJsonArray("choices");
        return choices == null || choices.isEmpty() ? "" : choices.getJsonObject(0).getJsonObject("message").getString("content", "");
    }

    /** The error type of an error answer, or "-". */
    String errorType() {
        return body.containsKey("error") ? body.getJsonObject("error").getString("type", "-") : "-";
    }
}
