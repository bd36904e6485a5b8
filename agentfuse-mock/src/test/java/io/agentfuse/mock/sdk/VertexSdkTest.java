package io.agentfuse.mock.sdk;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.genai.Client;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import io.agentfuse.mock.MockServiceAccount;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The Google GenAI SDK on Vertex AI against the Vertex mock, authenticated by google-auth-library
 * with a service-account file made with a fresh key; and Anthropic models on Vertex, with a token
 * that library fetched.
 */
class VertexSdkTest extends RunningMockProvider {

    private static final String PROJECT = "agentfuse-test";
    private static final String LOCATION = "us-east5";
    private static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";

    private final HttpClient http = HttpClient.newHttpClient();

    private static GoogleCredentials credentials(JsonObject file) throws IOException {
        return ServiceAccountCredentials.fromStream(new ByteArrayInputStream(file.encode().getBytes(StandardCharsets.UTF_8)))
                .createScoped(List.of(SCOPE));
    }

    private Client client(GoogleCredentials credentials) {
        return Client.builder().vertexAI(true).project(PROJECT).location(LOCATION).credentials(credentials)
                .httpOptions(HttpOptions.builder().baseUrl(mock.anthropicBaseUrl())
                        .retryOptions(HttpRetryOptions.builder().attempts(1).build()).build())
                .build();
    }

    @Test
    void givenAServiceAccountFileWhenTheSdkGeneratesContentOnVertexThenItGetsATokenAndTheScriptedAnswer() throws Exception {
        Client client = client(credentials(mock.newVertexServiceAccount(PROJECT).json()));
        mock.script(MockStep.builder().text("Hello from Vertex").inputTokens(6).build());

        GenerateContentResponse answer = client.models.generateContent("gemini-2.5-pro", "Hi", null);

        assertThat(answer.text()).isEqualTo("Hello from Vertex");
        assertThat(answer.usageMetadata().orElseThrow().promptTokenCount()).contains(6);
        assertThat(mock.requests()).extracting(request -> request.path()).containsExactly("/oauth2/token",
                "/v1beta1/projects/" + PROJECT + "/locations/" + LOCATION + "/publishers/google/models/gemini-2.5-pro:generateContent");
        assertThat(mock.requests().get(1).header("authorization")).hasValueSatisfying(value -> assertThat(value).startsWith("Bearer ya29.mock-"));
    }

    @Test
    void givenAStreamOnVertexWhenTheSdkStreamsThenItReadsEveryPiece() throws Exception {
        Client client = client(credentials(mock.newVertexServiceAccount(PROJECT).json()));
        mock.script(MockStep.builder().chunks("Ver", "tex").build());

        List<GenerateContentResponse> chunks = GeminiSdkTest.drain(client.models.generateContentStream("gemini-2.5-flash", "Hi", null));

        assertThat(chunks.stream().map(GenerateContentResponse::text).filter(text -> text != null).reduce("", String::concat))
                .isEqualTo("Vertex");
    }

    @Test
    void givenAnExpiredTokenWhenTheSdkCallsVertexThenItIsRefusedAsUnauthenticated() throws Exception {
        Client client = client(credentials(mock.newVertexServiceAccount(PROJECT).json()));
        client.models.generateContent("gemini-2.5-pro", "Hi", null);
        mock.expireVertexTokens();

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client.models.generateContent("gemini-2.5-pro", "Hi again", null));

        assertThat(error.code()).isEqualTo(401);
        assertThat(error.status()).isEqualTo("UNAUTHENTICATED");
    }

    @Test
    void givenATokenOfAnotherProjectWhenTheSdkCallsVertexThenPermissionIsDenied() throws Exception {
        Client client = client(credentials(mock.newVertexServiceAccount("someone-else").json()));

        ClientException error = catchThrowableOfType(ClientException.class,
                () -> client.models.generateContent("gemini-2.5-pro", "Hi", null));

        assertThat(error.code()).isEqualTo(403);
        assertThat(error.status()).isEqualTo("PERMISSION_DENIED");
    }

    @Test
    void givenAKeyTheMockDoesNotTrustWhenTheLibraryAsksForATokenThenTheJwtSignatureIsRefused() throws Exception {
        JsonObject file = mock.newVertexServiceAccount(PROJECT).json();
        file.put("private_key", mock.newVertexServiceAccount("other").json().getString("private_key"));
        GoogleCredentials credentials = credentials(file);

        Throwable error = catchThrowable(credentials::refreshAccessToken);

        assertThat(error).isInstanceOf(IOException.class).hasMessageContaining("invalid_grant")
                .hasMessageContaining("Invalid JWT Signature.");
    }

    @Test
    void givenAScriptedQuotaErrorWhenTheSdkCallsVertexThenItRaisesResourceExhausted() throws Exception {
        Client client = client(credentials(mock.newVertexServiceAccount(PROJECT).json()));
        mock.script(MockStep.builder().status(429).build());

        ApiException error = catchThrowableOfType(ApiException.class, () -> client.models.generateContent("gemini-2.5-pro", "Hi", null));

        assertThat(error.code()).isEqualTo(429);
        assertThat(error.status()).isEqualTo("RESOURCE_EXHAUSTED");
    }

    @Test
    void givenATokenFromTheLibraryWhenAnAnthropicModelIsCalledOnVertexThenItAnswersInAnthropicsShape() throws Exception {
        GoogleCredentials credentials = credentials(mock.newVertexServiceAccount(PROJECT).json());
        String token = credentials.refreshAccessToken().getTokenValue();
        mock.script(MockStep.builder().text("Hello from Claude on Vertex").build());
        JsonObject body = new JsonObject().put("anthropic_version", "vertex-2023-10-16").put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));

        HttpResponse<String> answer = rawPredict(token, body, "rawPredict");
        HttpResponse<String> withModel = rawPredict(token, body.copy().put("model", "claude-sonnet-4-5"), "rawPredict");
        HttpResponse<String> streamed = rawPredict(token, body.copy().put("stream", true), "streamRawPredict");
        HttpResponse<String> unauthenticated = rawPredict("ya29.made-up", body, "rawPredict");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(answer.body()).getJsonArray("content").getJsonObject(0).getString("text"))
                .isEqualTo("Hello from Claude on Vertex");
        assertThat(withModel.statusCode()).isEqualTo(400);
        assertThat(withModel.body()).contains("model: Extra inputs are not permitted");
        assertThat(streamed.headers().firstValue("content-type")).contains("text/event-stream");
        assertThat(streamed.body()).contains("event: message_start").contains("event: message_stop");
        assertThat(unauthenticated.statusCode()).isEqualTo(401);
        assertThat(new JsonObject(unauthenticated.body()).getJsonObject("error").getString("status")).isEqualTo("UNAUTHENTICATED");
    }

    private HttpResponse<String> rawPredict(String token, JsonObject body, String method) throws Exception {
        URI uri = URI.create(mock.anthropicBaseUrl() + "/v1/projects/" + PROJECT + "/locations/" + LOCATION
                + "/publishers/anthropic/models/claude-sonnet-4-5@20250929:" + method);
        return http.send(HttpRequest.newBuilder(uri).header("authorization", "Bearer " + token)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
