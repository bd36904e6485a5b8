package io.agentfuse.config.internal;

import io.agentfuse.config.internal.Node.ScalarNode;
import io.agentfuse.core.internal.Checks;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Reads amounts of money (a budget's {@code cost}, a model's {@code price}): exact decimals, kept
 * as written — {@code 0.15} is not {@code 0.1499999}, as a {@code double} would make it.
 */
final class ExactDecimals {

    private ExactDecimals() {
    }

    /** The decimal under {@code key} in [min, max], or empty when not written (or wrong, which is reported). */
    static Optional<BigDecimal> read(MapReader section, String key, BigDecimal min, BigDecimal max) {
        Optional<Node> found = section.find(key);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Node node = found.get();
        Optional<BigDecimal> value = node instanceof ScalarNode scalar && !scalar.isNull()
                ? ScalarFormats.decimal(scalar.text()).map(ignored -> new BigDecimal(scalar.text().strip()))
                : Optional.empty();
        if (value.isEmpty()) {
            section.problems().add(node, Checks.mustBe("a number like 12.50", node.describe()));
            return Optional.empty();
        }
        if (value.get().compareTo(min) < 0 || value.get().compareTo(max) > 0) {
            section.problems().add(node, Checks.mustBe("between " + min.toPlainString() + " and " + max.toPlainString(),
                    value.get().toPlainString()));
            return Optional.empty();
        }
        return value;
    }
}
