package io.agentfuse.springai.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentfuse.*} properties as the YAML the config parser reads. */
class PropertyTreeTest {

    private static String yaml(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return PropertyTree.yaml(environment);
    }

    @Test
    void nestsKeysAndListsInOrder() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("agentfuse.models.gpt-4o.fallbacks[10]", "k");
        properties.put("agentfuse.models.gpt-4o.fallbacks[9]", "j");
        properties.put("agentfuse.models.gpt-4o.provider", "openai");
        properties.put("agentfuse.config-file", "ignored.yaml");
        properties.put("other.key", "ignored");

        assertThat(yaml(properties)).isEqualTo("""
                models:
                  gpt-4o:
                    fallbacks:
                      - j
                      - k
                    provider: openai
                """);
    }

    @Test
    void bracketsKeepDotsInAKey() {
        assertThat(PropertyTree.path("models[gpt-4.1].fallbacks[0]")).containsExactly("models", "gpt-4.1", "fallbacks", "[0]");
    }

    @Test
    void quotesWhatAPlainScalarWouldChange() {
        assertThat(PropertyTree.scalar("30s")).isEqualTo("30s");
        assertThat(PropertyTree.scalar("http://127.0.0.1:9000/mcp")).isEqualTo("http://127.0.0.1:9000/mcp");
        assertThat(PropertyTree.scalar("a: b # c")).isEqualTo("\"a: b # c\"");
        assertThat(PropertyTree.scalar("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
        assertThat(PropertyTree.scalar("")).isEqualTo("\"\"");
    }
}
