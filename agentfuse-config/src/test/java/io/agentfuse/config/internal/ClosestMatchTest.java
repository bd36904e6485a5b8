package io.agentfuse.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import org.junit.jupiter.api.Test;

class ClosestMatchTest {

    private static final List<String> KEYS = List.of("failureThreshold", "resetTimeout", "halfOpenRequests");

    @Test
    void suggestsTheKeyOneTypoAway() {
        assertThat(ClosestMatch.among("failureTreshold", KEYS)).contains("failureThreshold");
    }

    @Test
    void ignoresCase() {
        assertThat(ClosestMatch.among("resettimeout", KEYS)).contains("resetTimeout");
    }

    @Test
    void suggestsAKeyThatStartsWithTheWord() {
        assertThat(ClosestMatch.among("halfOpen", KEYS)).contains("halfOpenRequests");
    }

    @Test
    void suggestsNothingForAnUnrelatedWord() {
        assertThat(ClosestMatch.among("colour", KEYS)).isEmpty();
    }

    @Property
    void distanceIsSymmetricAndZeroOnlyForEqualText(@ForAll @AlphaChars String first, @ForAll @AlphaChars String second) {
        assertThat(ClosestMatch.distance(first, second)).isEqualTo(ClosestMatch.distance(second, first));
        assertThat(ClosestMatch.distance(first, second) == 0).isEqualTo(first.equalsIgnoreCase(second));
    }
}
