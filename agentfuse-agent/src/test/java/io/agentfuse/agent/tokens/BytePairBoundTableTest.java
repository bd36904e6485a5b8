package io.agentfuse.agent.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BytePairBoundTableTest {

    /**
     * The bound is proven only for pairs that are one token of the encoding: the shipped table must
     * be exactly what the vocabulary says. If it is not, write the resource anew from
     * {@code BytePairBound.joinTable(encoding)}.
     */
    @ParameterizedTest
    @EnumSource(value = EncodingType.class, names = {"O200K_BASE", "CL100K_BASE"})
    void theShippedJoinTableIsTheVocabularysOwn(EncodingType type) throws IOException {
        String computed = BytePairBound.joinTable(Encodings.newLazyEncodingRegistry().getEncoding(type));

        assertThat(shipped(type.getName() + ".joins")).isEqualTo(computed);
    }

    @ParameterizedTest
    @EnumSource(value = EncodingType.class, names = {"O200K_BASE", "CL100K_BASE"})
    void boundsWithoutLoadingTheVocabularyAndLoadsItToCount(EncodingType type) {
        TiktokenCounter counter = new TiktokenCounter(type);

        int bound = counter.upperBoundText("public static void main(String[] args) { run(); }");
        assertThat(counter.vocabularyLoaded()).isFalse();

        assertThat(counter.countText("public static void main(String[] args) { run(); }")).isLessThanOrEqualTo(bound);
        assertThat(counter.vocabularyLoaded()).isTrue();
    }

    private static String shipped(String resource) throws IOException {
        try (InputStream in = BytePairBound.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
