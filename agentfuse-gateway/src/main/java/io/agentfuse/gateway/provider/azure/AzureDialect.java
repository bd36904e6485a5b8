package io.agentfuse.gateway.provider.azure;

import io.agentfuse.config.ProviderConfig;
import io.agentfuse.core.Outcome;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.ProviderErrorFields;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.UpstreamAuth;
import io.agentfuse.gateway.provider.ForwardingDialect;
import io.agentfuse.gateway.provider.openai.OpenAiDialect;
import io.agentfuse.gateway.provider.responses.ResponsesDialect;
import io.vertx.core.MultiMap;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Azure OpenAI's v1 API, spoken to {@code azure} providers: OpenAI's Chat Completions
 * ({@link #CHAT}) or Responses ({@link #RESPONSES}) bodies, answers and streams, below a base URL
 * {@code https://{resource}.openai.azure.com/openai/v1}, the deployment as the body's {@code model}
 * (the configured {@code upstreamModel}). What differs from OpenAI: the key goes in {@code api-key}
 * ({@link #authHeaders}), or an Entra ID token as {@code Authorization: Bearer}
 * ({@link #entraAuthHeaders}); {@code ?api-version=} is added when configured
 * ({@link #upstreamPath(String)}); a chat stream begins with Azure's prompt-filter chunk, skipped
 * ({@link AzureStreamDecoder}); errors are classified by {@link AzureErrors}.
 *
 * <p>Stateless and thread-safe: use {@link #CHAT} and {@link #RESPONSES}.
 */
public final class AzureDialect extends ForwardingDialect {

    /** Chat Completions on Azure, the dialect callers of other dialects are translated to. */
    public static final AzureDialect CHAT = new AzureDialect("azure", OpenAiDialect.INSTANCE);
    /** The Responses API on Azure. */
    public static final AzureDialect RESPONSES = new AzureDialect("azure-responses", ResponsesDialect.INSTANCE);

    private final String name;

    private AzureDialect(String name, Dialect openAi) {
        super(openAi);
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String providerType() {
        return "azure";
    }

    /** The upstream path with {@code ?api-version=} when {@code apiVersion} is set (the v1 API needs none). */
    public String upstreamPath(String apiVersion) {
        return apiVersion == null || apiVersion.isBlank() ? upstreamPath()
                : upstreamPath() + "?api-version=" + URLEncoder.encode(apiVersion, StandardCharsets.UTF_8);
    }

    /** The wire's path below the base URL, with {@code ?api-version=} when the provider sets {@code apiVersion}; the deployment is the body's model. */
    @Override
    public String upstreamPath(ProviderConfig provider, String model, boolean stream) {
        return upstreamPath(provider.cloud().apiVersion());
    }

    /** The Entra ID token as {@code Authorization: Bearer} when {@code azureAdToken} is set, else the {@code api-key}. */
    @Override
    public UpstreamAuth upstreamAuth(ProviderConfig provider) {
        String token = provider.cloud().azureAdToken();
        return token.isEmpty() ? UpstreamAuth.fixed(authHeaders(provider.apiKey()), new UpstreamAuth.Credential(
                "Azure API key", "providers." + provider.name() + ".apiKey (or set azureAdToken to use an Entra ID token)"))
                : UpstreamAuth.fixed(entraAuthHeaders(token), new UpstreamAuth.Credential("Entra ID token",
                        "providers." + provider.name() + ".azureAdToken (Entra ID tokens expire after about an hour)"));
    }

    @Override
    public Map<String, String> authHeaders(String apiKey) {
        return apiKey == null || apiKey.isEmpty() ? Map.of() : Map.of("api-key", apiKey);
    }

    /** The headers of an Entra ID (Azure AD) token, instead of a key. */
    public Map<String, String> entraAuthHeaders(String token) {
        return token == null || token.isEmpty() ? Map.of() : Map.of("authorization", "Bearer " + token);
    }

    @Override
    public StreamDecoder streamDecoder() {
        return new AzureStreamDecoder(wire().streamDecoder());
    }

    /** Azure's 404 {@code DeploymentNotFound} (the deployment is the model), or OpenAI's {@code model_not_found}. */
    @Override
    public boolean refusesModel(int status, MultiMap headers, String body) {
        String code = status == 404 ? ProviderErrorFields.of(body).code() : null;
        return "DeploymentNotFound".equals(code) || "model_not_found".equals(code);
    }

    /** The outcome of an Azure error answer ({@link AzureErrors#outcome}). */
    @Override
    public Outcome errorOutcome(int status, MultiMap headers, String body) {
        return AzureErrors.outcome(status, body);
    }
}
