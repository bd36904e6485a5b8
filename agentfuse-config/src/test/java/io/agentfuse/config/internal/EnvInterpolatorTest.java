package io.agentfuse.config.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvInterpolatorTest {

    private final EnvInterpolator interpolator = new EnvInterpolator(Map.of("HOST", "db", "EMPTY", ""));

    @Test
    void replacesEveryReference() {
        assertThat(interpolator.interpolate("redis://${HOST}:${PORT:-6379}/0")).isEqualTo("redis://db:6379/0");
    }

    @Test
    void defaultReplacesAnEmptyVariable() {
        assertThat(interpolator.interpolate("${EMPTY:-fallback}")).isEqualTo("fallback");
    }

    @Test
    void emptyDefaultGivesEmptyText() {
        assertThat(interpolator.interpolate("${MISSING:-}")).isEmpty();
    }

    @Test
    void setButEmptyVariableWithoutDefaultIsEmpty() {
        assertThat(interpolator.interpolate("[${EMPTY}]")).isEqualTo("[]");
    }

    @Test
    void textWithoutReferencesIsUnchanged() {
        assertThat(interpolator.interpolate("$HOST and $ and {}")).isEqualTo("$HOST and $ and {}");
    }

    @Test
    void unsetVariableWithoutDefaultNamesTheVariable() {
        assertThatThrownBy(() -> interpolator.interpolate("${API_KEY}"))
                .hasMessageContaining("environment variable API_KEY is not set");
    }

    @Test
    void unclosedReferenceIsAnError() {
        assertThatThrownBy(() -> interpolator.interpolate("${HOST")).hasMessageContaining("is not closed");
    }
}
