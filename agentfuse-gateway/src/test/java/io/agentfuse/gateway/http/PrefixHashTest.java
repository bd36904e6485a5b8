package io.agentfuse.gateway.http;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import static org.assertj.core.api.Assertions.assertThat;

/** A window's hash is the same whether the hash grew to it from smaller windows or started there. */
class PrefixHashTest {

    @Property(tries = 300)
    void aGrownWindowHashesAsAFreshOne(@ForAll @Size(min = 1, max = 600) byte[] bytes,
                                       @ForAll @IntRange(min = 0, max = 700) int first,
                                       @ForAll @IntRange(min = 0, max = 700) int more,
                                       @ForAll @IntRange(min = 0, max = 40) int at) {
        int from = Math.min(at, bytes.length - 1);
        PrefixHash grown = new PrefixHash(bytes, from, bytes.length);
        grown.upTo(first);

        assertThat(grown.upTo(first + more)).isEqualTo(new PrefixHash(bytes, from, bytes.length).upTo(first + more));
    }

    @Property(tries = 300)
    void bytesPastTheWindowDoNotChangeIt(@ForAll @Size(min = 200, max = 400) byte[] bytes,
                                         @ForAll @IntRange(min = 1, max = 199) int window) {
        long before = new PrefixHash(bytes, 0, bytes.length).upTo(window);
        bytes[window] ^= 1;

        assertThat(new PrefixHash(bytes, 0, bytes.length).upTo(window)).isEqualTo(before);
        bytes[window - 1] ^= 1;
        assertThat(new PrefixHash(bytes, 0, bytes.length).upTo(window)).isNotEqualTo(before);
    }
}
