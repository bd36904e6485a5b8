package io.agentfuse.core.breaker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedNamesTest {

    @Test
    void admitsNamesUntilTheBoundAndMapsEveryLaterNewNameToTheOverflow() {
        BoundedNames names = new BoundedNames(2, 16, "(other)");

        assertThat(names.admit("a")).isEqualTo("a");
        assertThat(names.admit("b")).isEqualTo("b");
        assertThat(names.admit("c")).isEqualTo("(other)");

        assertThat(names.admit("a")).isEqualTo("a");
        assertThat(names.size()).isEqualTo(2);
        assertThat(names.isFull()).isTrue();
    }

    @Test
    void lookupAdmitsNothing() {
        BoundedNames names = new BoundedNames(2, 16, "(other)");

        assertThat(names.lookup("a")).isEqualTo("(other)");
        assertThat(names.size()).isZero();
    }

    @Test
    void aNameWithANewlineOrAControlCharacterIsNeverAdmitted() {
        BoundedNames names = new BoundedNames(10, 64, "(other)");

        assertThat(names.admit("q\nWARN forged line")).isEqualTo("(other)");
        assertThat(names.admit("q\r")).isEqualTo("(other)");
        assertThat(names.admit("q\u0000")).isEqualTo("(other)");
        assertThat(names.admit("q\u2028")).isEqualTo("(other)");
        assertThat(names.admit("")).isEqualTo("(other)");
        assertThat(names.admit(null)).isEqualTo("(other)");
        assertThat(names.size()).isZero();
    }

    @Test
    void aNameLongerThanTheLimitIsNotAdmitted() {
        BoundedNames names = new BoundedNames(10, 4, "(other)");

        assertThat(names.admit("abcd")).isEqualTo("abcd");
        assertThat(names.admit("abcde")).isEqualTo("(other)");
    }

    @Test
    void removingANameMakesRoomForAnother() {
        BoundedNames names = new BoundedNames(1, 16, "(other)");
        names.admit("a");

        assertThat(names.remove("a")).isTrue();

        assertThat(names.admit("b")).isEqualTo("b");
    }

    @Test
    void aNegativeBoundIsRefusedWithTheValue() {
        assertThatThrownBy(() -> new BoundedNames(-1, 16, "(other)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxNames").hasMessageContaining("-1");
    }
}
