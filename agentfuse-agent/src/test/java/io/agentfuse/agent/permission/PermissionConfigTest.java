package io.agentfuse.agent.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PermissionConfigTest {

    @Test
    void defaultsAreTheSeedValues() {
        PermissionConfig config = PermissionConfig.defaults();

        assertThat(config.maxConsecutiveDenials()).isEqualTo(3);
        assertThat(config.maxTotalDenials()).isEqualTo(20);
        assertThat(config.scope()).isEqualTo(PermissionScope.CATEGORY);
        assertThat(config.halfOpenAfter()).isNull();
        assertThat(config.headless()).isFalse();
    }

    @Test
    void rejectsZeroConsecutiveDenialsWithTheKeyAndValue() {
        assertThatThrownBy(() -> PermissionConfig.builder().maxConsecutiveDenials(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConsecutiveDenials must be >= 1, but was 0");
    }

    @Test
    void rejectsATotalLimitBelowTheStreakLimit() {
        assertThatThrownBy(() -> PermissionConfig.builder().maxConsecutiveDenials(5).maxTotalDenials(4).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxTotalDenials must be >= maxConsecutiveDenials (5), but was 4");
    }

    @Test
    void rejectsAHalfOpenDelayThatIsNotPositive() {
        assertThatThrownBy(() -> PermissionConfig.builder().halfOpenAfter(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("halfOpenAfter must be positive, but was PT0S");
    }

    @Test
    void rejectsAMissingScope() {
        assertThatThrownBy(() -> new PermissionConfig(3, 20, null, null, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("scope must be set, but was null");
    }
}
