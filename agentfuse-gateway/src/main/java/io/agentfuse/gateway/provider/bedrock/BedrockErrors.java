package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.dialect.ProviderErrorFields;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * Bedrock's errors and what they mean for the breakers and retries. Bedrock names the exception in
 * the {@code x-amzn-ErrorType} header ({@code ThrottlingException:http://internal.amazon.com/...}) or
 * the body's {@code __type}; inside a stream it is the exception frame's type.
 *
 * <table>
 *   <caption>Bedrock exceptions</caption>
 *   <tr><th>exception</th><th>status</th><th>outcome</th></tr>
 *   <tr><td>ThrottlingException, ServiceQuotaExceededException</td><td>429, 400</td><td>RATE_LIMITED</td></tr>
 *   <tr><td>ModelNotReadyException, ServiceUnavailableException</td><td>429, 503</td><td>OVERLOADED</td></tr>
 *   <tr><td>ModelTimeoutException</td><td>408</td><td>TIMEOUT</td></tr>
 *   <tr><td>InternalServerException, ModelErrorException, ModelStreamErrorException</td><td>500, 424</td><td>SERVER_ERROR</td></tr>
 *   <tr><td>anything else (ValidationException, AccessDeniedException, ...)</td><td>4xx</td><td>by the status</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 */
public final class BedrockErrors {

    private BedrockErrors() {
    }

    /** The outcome of a Bedrock error answer: its {@code status}, {@code x-amzn-ErrorType} header (may be null) and body. */
    public static Outcome outcome(int status, String errorTypeHeader, String body) {
        Outcome byException = outcomeOf(exception(errorTypeHeader, body));
        return byException != null ? byException : OutcomeClassifier.ofStatus(status, body);
    }

    /**
     * Whether a Bedrock error answer refuses the model ID the gateway sent: 404
     * {@code ResourceNotFoundException} ("Model not found", "This model version has reached the end of its
     * life") or 400 {@code ValidationException} "The provided model identifier is invalid".
     */
    public static boolean refusesModel(int status, String errorTypeHeader, String body) {
        if (status != 404 && status != 400) {
            return false;
        }
        String exception = exception(errorTypeHeader, body);
        return status == 404 && "ResourceNotFoundException".equals(exception)
                || status == 400 && "ValidationException".equals(exception)
                && ProviderErrorFields.of(body).messageHas("model identifier is invalid");
    }

    /** The outcome of an exception a ConverseStream reported, by its name. */
    public static Outcome streamErrorOutcome(String exception) {
        Outcome outcome = outcomeOf(exception);
        return outcome != null ? outcome : Outcome.SERVER_ERROR;
    }

    /** The exception's name, from the header or else the body's {@code __type} ({@code null} when neither names one). */
    public static String exception(String errorTypeHeader, String body) {
        String name = errorTypeHeader;
        if (name == null || name.isBlank()) {
            try {
                name = body == null || body.isBlank() ? null : new JsonObject(body).getString("__type");
            } catch (DecodeException | ClassCastException e) {
                name = null;
            }
        }
        if (name == null) {
            return null;
        }
        int colon = name.indexOf(':');
        name = colon < 0 ? name : name.substring(0, colon);
        int hash = name.lastIndexOf('#');
        return hash < 0 ? name : name.substring(hash + 1);
    }

    private static Outcome outcomeOf(String exception) {
        if (exception == null) {
            return null;
        }
        return switch (exception) {
            case "ThrottlingException", "ServiceQuotaExceededException" -> Outcome.RATE_LIMITED;
            case "ModelNotReadyException", "ServiceUnavailableException" -> Outcome.OVERLOADED;
            case "ModelTimeoutException" -> Outcome.TIMEOUT;
            case "InternalServerException", "ModelErrorException", "ModelStreamErrorException" -> Outcome.SERVER_ERROR;
            default -> null;
        };
    }
}
