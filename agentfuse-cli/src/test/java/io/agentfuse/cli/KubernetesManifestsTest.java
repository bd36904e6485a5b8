package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The manifests in {@code deploy/kubernetes/} hold together: the configuration their ConfigMap
 * embeds passes {@code agentfuse validate} with the keys of their Secret; the fleet shares its state
 * on their Redis; the probes are the gateway's; a pod is given longer to stop than the gateway's
 * drain takes; the PodDisruptionBudget and the Service select the gateways.
 */
class KubernetesManifestsTest {

    private static final Path MANIFESTS = Path.of("").toAbsolutePath().getParent().resolve("deploy/kubernetes");
    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void theConfigMapsConfigurationPassesValidateWithTheSecretsKeys(@TempDir Path directory) throws IOException {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), embeddedConfiguration());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine validate = AgentfuseCommand.commandLine(secretKeys());
        validate.setOut(new PrintWriter(out, true));
        validate.setErr(new PrintWriter(err, true));

        int exitCode = validate.execute("validate", "--config", config.toString());

        assertThat(exitCode).as(err.toString()).isZero();
        assertThat(out.toString()).contains("is valid").contains("claude-sonnet-4").contains("state in redis");
    }

    @Test
    void everyVariableTheConfigurationReadsIsAKeyOfTheSecret() throws IOException {
        List<String> variables = new ArrayList<>();
        Matcher reference = Pattern.compile("\\$\\{([A-Z0-9_]+)").matcher(embeddedConfiguration());
        while (reference.find()) {
            variables.add(reference.group(1));
        }

        assertThat(variables).isNotEmpty();
        assertThat(secretKeys().keySet()).containsAll(variables);
        JsonNode container = gatewayContainer();
        assertThat(container.get("envFrom").get(0).get("secretRef").get("name").asString())
                .isEqualTo(document("secret.yaml", "Secret").get("metadata").get("name").asString());
    }

    @Test
    void theFleetSharesItsStateOnTheRedisOfTheManifests() throws IOException {
        AgentfuseConfig config = ConfigLoader.parse(embeddedConfiguration(), "configmap.yaml", secretKeys());

        assertThat(config.state().store().name()).isEqualTo("REDIS");
        String redisService = documents("redis.yaml").stream().filter(doc -> doc.get("kind").asString().equals("Service"))
                .findFirst().orElseThrow().get("metadata").get("name").asString();
        assertThat(config.state().redis().uri()).isEqualTo("redis://" + redisService + ":6379");
        assertThat(document("deployment.yaml", "Deployment").get("spec").get("replicas").asInt()).isGreaterThan(1);
    }

    @Test
    void aPodIsGivenLongerToStopThanTheDrainTakesAndIsProbedOnReadyzAndHealthz() throws IOException {
        AgentfuseConfig config = ConfigLoader.parse(embeddedConfiguration(), "configmap.yaml", secretKeys());
        JsonNode pod = document("deployment.yaml", "Deployment").get("spec").get("template").get("spec");
        JsonNode container = gatewayContainer();

        Duration stopAtMost = ServeCommand.longestStop(config.server().shutdown()).plus(Foreground.CLOSE_BOUND);
        assertThat(Duration.ofSeconds(pod.get("terminationGracePeriodSeconds").asLong())).isGreaterThan(stopAtMost);
        assertThat(container.get("readinessProbe").get("httpGet").get("path").asString()).isEqualTo("/readyz");
        assertThat(container.get("livenessProbe").get("httpGet").get("path").asString()).isEqualTo("/healthz");
        assertThat(container.get("ports").get(0).get("containerPort").asInt()).isEqualTo(config.server().port()).isEqualTo(8787);
        assertThat(container.get("volumeMounts").findValuesAsString("mountPath")).contains("/etc/agentfuse", "/tmp");
        assertThat(pod.get("securityContext").get("runAsNonRoot").asBoolean()).isTrue();
    }

    @Test
    void theDisruptionBudgetAndTheServiceSelectTheGateways() throws IOException {
        JsonNode labels = document("deployment.yaml", "Deployment").get("spec").get("template").get("metadata").get("labels");
        JsonNode budget = document("poddisruptionbudget.yaml", "PodDisruptionBudget").get("spec");

        assertThat(labelsMatch(budget.get("selector").get("matchLabels"), labels)).isTrue();
        assertThat(labelsMatch(document("service.yaml", "Service").get("spec").get("selector"), labels)).isTrue();
        assertThat(budget.get("maxUnavailable").asInt()).isEqualTo(1);
        List<String> resources = new ArrayList<>();
        YAML.readTree(MANIFESTS.resolve("kustomization.yaml").toFile()).get("resources").forEach(r -> resources.add(r.asString()));
        try (var files = Files.list(MANIFESTS)) {
            assertThat(resources).as("kustomization lists every manifest")
                    .containsExactlyInAnyOrderElementsOf(files.map(file -> file.getFileName().toString())
                            .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml")).toList());
        }
    }

    private static boolean labelsMatch(JsonNode selector, JsonNode labels) {
        List<String> names = new ArrayList<>(selector.propertyNames());
        return !names.isEmpty() && names.stream().allMatch(name -> labels.has(name)
                && labels.get(name).asString().equals(selector.get(name).asString()));
    }

    private static String embeddedConfiguration() throws IOException {
        return document("configmap.yaml", "ConfigMap").get("data").get("agentfuse.yaml").asString();
    }

    private static Map<String, String> secretKeys() throws IOException {
        Map<String, String> keys = new HashMap<>();
        JsonNode data = document("secret.yaml", "Secret").get("stringData");
        data.propertyNames().forEach(name -> keys.put(name, data.get(name).asString()));
        return keys;
    }

    private static JsonNode gatewayContainer() throws IOException {
        return document("deployment.yaml", "Deployment").get("spec").get("template").get("spec").get("containers").get(0);
    }

    private static JsonNode document(String file, String kind) throws IOException {
        return documents(file).stream().filter(doc -> doc.get("kind").asString().equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError(file + " has no " + kind));
    }

    private static List<JsonNode> documents(String file) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> all = YAML.readerFor(JsonNode.class).readValues(MANIFESTS.resolve(file).toFile())) {
            all.forEachRemaining(documents::add);
        }
        return documents;
    }
}
