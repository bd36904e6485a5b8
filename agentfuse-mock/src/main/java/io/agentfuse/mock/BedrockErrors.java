package io.agentfuse.mock;

import java.util.Map;

/**
 * Bedrock's error answers: the message each exception comes with and the headers that name it
 * ({@code x-amzn-ErrorType}, which the AWS SDK reads the exception's type from). Stateless.
 */
final class BedrockErrors {

    private BedrockErrors() {
    }

    /** The message Bedrock sends with {@code exception}. */
    static String message(String exception) {
        return switch (exception) {
            case "ThrottlingException" -> "Too many requests, please wait before trying again.";
            case "ModelNotReadyException" -> "Model is not ready for inference. Wait and try your request again.";
            case "ServiceUnavailableException" -> "Bedrock is unable to process your request.";
            case "ModelTimeoutException" -> "Model has timed out in processing the request. Try your request again.";
            case "InternalServerException" -> "The system encountered an unexpected error during processing. Try your request again.";
            case "ModelErrorException" -> "The model returned an unexpected error. Try your request again.";
            case "ModelStreamErrorException" -> "The model stream returned an error. Try your request again.";
            case "AccessDeniedException" -> "You don't have access to the model with the specified model ID.";
            case "ResourceNotFoundException" -> "The provided model identifier is invalid.";
            case "ServiceQuotaExceededException" -> "Your request exceeds the service quota for your account.";
            case "InvalidSignatureException" -> "The request signature we calculated does not match the signature you "
                    + "provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
            case "UnrecognizedClientException" -> "The security token included in the request is invalid.";
            case "MissingAuthenticationTokenException" -> "Missing Authentication Token";
            case "SerializationException" -> "Unable to parse the request body as JSON.";
            default -> "Malformed input request, please reformat your input and try again.";
        };
    }

    /** The headers of an answer with {@code exception}. */
    static Map<String, String> headers(String exception) {
        return Map.of("x-amzn-ErrorType", exception + ":http://internal.amazon.com/coral/com.amazon.bedrock/",
                "content-type", "application/json");
    }
}
