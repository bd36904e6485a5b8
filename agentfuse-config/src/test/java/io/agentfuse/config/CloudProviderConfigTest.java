package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys of the bedrock, vertex, gemini and azure provider types, and what a provider cannot go without. */
class CloudProviderConfigTest {

    @TempDir
    Path dir;

    @Test
    void aBedrockProviderWithStaticKeysFromTheEnvironmentIsReachedAtItsRegionsEndpoint() {
        ProviderConfig bedrock = ConfigLoader.parse("""
                providers:
                  bedrock:
                    region: eu-west-3
                    accessKeyId: ${AWS_ACCESS_KEY_ID}
                    secretAccessKey: ${AWS_SECRET_ACCESS_KEY}
                    sessionToken: ${AWS_SESSION_TOKEN}
                """, "a.yaml", Map.of("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY", "s3cr3t-value",
                "AWS_SESSION_TOKEN", "session-value")).providers().get("bedrock");

        assertThat(bedrock.type()).isEqualTo(ProviderConfig.Type.BEDROCK);
        assertThat(bedrock.baseUrl()).isEqualTo(URI.create("https://bedrock-runtime.eu-west-3.amazonaws.com"));
        assertThat(bedrock.cloud().region()).isEqualTo("eu-west-3");
        assertThat(bedrock.cloud().secretAccessKey()).isEqualTo("s3cr3t-value");
        assertThat(bedrock.toString()).doesNotContain("AKIAEXAMPLE", "s3cr3t-value", "session-value");
    }

    @Test
    void aBedrockProviderMayUseTheAwsDefaultChain() {
        ProviderConfig bedrock = ConfigLoader.parse("""
                providers:
                  aws: { type: bedrock, region: us-east-1, credentials: default }
                """, "a.yaml", Map.of()).providers().get("aws");

        assertThat(bedrock.cloud().usesDefaultChain()).isTrue();
    }

    @Test
    void aBedrockProviderWithoutRegionOrCredentialsIsReportedWithItsKeyPathAndLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                models:
                  m: { provider: aws }
                providers:
                  aws:
                    type: bedrock
                """, "a.yaml", Map.of()));

        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("providers.aws.region");
            assertThat(error.line()).isEqualTo(4);
            assertThat(error.message()).contains("required");
        });
        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("providers.aws.credentials");
            assertThat(error.message()).contains("accessKeyId", "credentials: default");
        });
    }

    @Test
    void halfAKeyPairIsReportedWithoutEchoingTheSecret() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                providers:
                  aws: { type: bedrock, region: us-east-1, secretAccessKey: very-secret-value }
                """, "a.yaml", Map.of()));

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("providers.aws.accessKeyId");
            assertThat(error.message()).doesNotContain("very-secret-value");
        });
    }

    @Test
    void aVertexProviderReadsItsProjectLocationAndCredentialsFile() throws Exception {
        Path file = Files.writeString(dir.resolve("sa.json"), "{}");
        ProviderConfig vertex = ConfigLoader.parse("""
                providers:
                  vertex: { project: my-project, location: us-east5 }
                """, "a.yaml", Map.of("GOOGLE_APPLICATION_CREDENTIALS", file.toString())).providers().get("vertex");

        assertThat(vertex.type()).isEqualTo(ProviderConfig.Type.VERTEX);
        assertThat(vertex.cloud().project()).isEqualTo("my-project");
        assertThat(vertex.cloud().credentials()).isEqualTo(file.toString());
        assertThat(vertex.baseUrl()).isEqualTo(URI.create("https://us-east5-aiplatform.googleapis.com"));
        assertThat(ConfigLoader.parse("providers:\n  v: { type: vertex, project: p1, credentials: " + file + " }\n",
                "a.yaml", Map.of()).providers().get("v").baseUrl()).isEqualTo(URI.create("https://aiplatform.googleapis.com"));
    }

    @Test
    void aVertexProviderWithoutProjectOrWithAMissingCredentialsFileIsReportedWithItsLine() {
        String missing = dir.resolve("nowhere.json").toString();
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                providers:
                  vertex:
                    location: us-east5
                    credentials: %s
                """.formatted(missing), "a.yaml", Map.of()));

        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("providers.vertex.project");
            assertThat(error.line()).isEqualTo(2);
        });
        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("providers.vertex.credentials");
            assertThat(error.line()).isEqualTo(4);
            assertThat(error.message()).contains(missing, "missing");
        });
    }

    @Test
    void anAzureProviderNeedsItsResourcesBaseUrlAndKeepsItsApiVersionAndEntraToken() {
        ProviderConfig azure = ConfigLoader.parse("""
                providers:
                  azure:
                    baseUrl: https://my-resource.openai.azure.com/openai/v1
                    apiVersion: preview
                    azureAdToken: ${AZURE_AD_TOKEN}
                """, "a.yaml", Map.of("AZURE_AD_TOKEN", "entra-token-value", "AZURE_OPENAI_API_KEY", "azure-key"))
                .providers().get("azure");

        assertThat(azure.cloud().apiVersion()).isEqualTo("preview");
        assertThat(azure.apiKey()).isEqualTo("azure-key");
        assertThat(azure.toString()).doesNotContain("entra-token-value", "azure-key");

        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "providers:\n  azure: { apiVersion: preview }\n", "a.yaml", Map.of()));
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("providers.azure.baseUrl");
            assertThat(error.line()).isEqualTo(2);
        });
    }

    @Test
    void aCloudKeyOnAnotherTypeIsAnUnknownKey() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "providers:\n  openai: { region: us-east-1 }\n", "a.yaml", Map.of()));

        assertThat(failure.errors()).singleElement().satisfies(error -> assertThat(error.path()).isEqualTo("providers.openai.region"));
    }

    @Test
    void geminiIsABuiltInProviderWithItsConventionalKeyAndServesTheGeminiFamily() {
        AgentfuseConfig config = ConfigLoader.parse("""
                models:
                  main: { provider: anthropic, upstreamModel: claude-sonnet-4, fallbacks: [gemini-2.5-pro] }
                """, "a.yaml", Map.of("GEMINI_API_KEY", "gemini-key"));

        assertThat(config.providers().get("gemini").apiKey()).isEqualTo("gemini-key");
        assertThat(config.providerOf(config.chainFor(config.model("main").orElseThrow(), false).get(1)).type())
                .isEqualTo(ProviderConfig.Type.GEMINI);
    }
}
