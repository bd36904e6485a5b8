package io.agentfuse.gateway.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LargeBodiesBudgetTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void takesLargeBodiesWhileThereIsRoomAndRefusesTheOneThatWouldGoBeyond() {
        LargeBodies bodies = new LargeBodies(20 * MIB);

        LargeBodies.Ticket first = bodies.take(8 * MIB);
        LargeBodies.Ticket second = bodies.take(8 * MIB);
        LargeBodies.Ticket third = bodies.take(8 * MIB);

        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(third).as("24 MiB would pass the 20 MiB budget").isNull();
        assertThat(bodies.taken()).isEqualTo(16 * MIB);

        first.giveBack();
        first.giveBack(); // a second time gives nothing back

        assertThat(bodies.taken()).isEqualTo(8 * MIB);
        assertThat(bodies.take(12 * MIB)).isNotNull();
    }

    @Test
    void aBodyCountedLargerThanItTurnedOutKeepsOnlyWhatItIs() {
        LargeBodies bodies = new LargeBodies(20 * MIB);
        LargeBodies.Ticket chunked = bodies.take(10 * MIB); // not announced: counted as the largest

        chunked.keepOnly(2 * MIB);
        chunked.keepOnly(3 * MIB); // never grows back

        assertThat(bodies.taken()).isEqualTo(2 * MIB);
        assertThat(bodies.take(16 * MIB)).isNotNull();
        chunked.giveBack();
        assertThat(bodies.taken()).isEqualTo(16 * MIB);
    }

    @Test
    void bodiesUnder64KibAndUnknownLengthsAreNotCounted() {
        LargeBodies bodies = new LargeBodies(MIB);

        assertThat(bodies.take(LargeBodies.COUNTED_BYTES - 1)).isSameAs(LargeBodies.Ticket.NONE);
        assertThat(bodies.take(-1)).as("chunked: no length").isSameAs(LargeBodies.Ticket.NONE);
        assertThat(bodies.taken()).isZero();
        LargeBodies.Ticket.NONE.giveBack();
        assertThat(bodies.taken()).isZero();
        assertThat(bodies.take(LargeBodies.COUNTED_BYTES)).as("a conversation's size").isNotNull();
        assertThat(bodies.taken()).isEqualTo(LargeBodies.COUNTED_BYTES);
    }

    @Test
    void aBodyWhoseLengthIsNotAnnouncedCountsTheMostItMayBeAsItArrives() {
        long limit = 10 * MIB;

        assertThat(LargeBodies.countedWhileArriving(LargeBodies.COUNTED_BYTES - 1, limit)).isZero();
        assertThat(LargeBodies.countedWhileArriving(LargeBodies.COUNTED_BYTES, limit)).isEqualTo(MIB);
        assertThat(LargeBodies.countedWhileArriving(MIB - 1, limit)).isEqualTo(MIB);
        assertThat(LargeBodies.countedWhileArriving(MIB, limit)).isEqualTo(limit);
    }

    @Test
    void aTicketGrowsOnlyWhileTheBudgetHasRoom() {
        LargeBodies bodies = new LargeBodies(12 * MIB);
        LargeBodies.Ticket arriving = bodies.take(MIB);
        LargeBodies.Ticket other = bodies.take(2 * MIB);

        assertThat(arriving.growTo(10 * MIB)).as("1 + 2 + 9 MiB fit 12").isTrue();
        assertThat(bodies.taken()).isEqualTo(12 * MIB);
        other.giveBack();
        assertThat(arriving.growTo(13 * MIB)).as("past the budget").isFalse();
        assertThat(bodies.taken()).as("it holds what it held").isEqualTo(10 * MIB);
        arriving.giveBack();
        assertThat(bodies.taken()).isZero();
    }

    @Test
    void theDefaultBudgetAlwaysTakesOneBodyOfTheLargestSize() {
        long huge = Runtime.getRuntime().maxMemory(); // more than an eighth of the heap

        assertThat(LargeBodies.ofHeap(huge).take(huge)).isNotNull();
        assertThatThrownBy(() -> new LargeBodies(MIB - 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("budget must be >= 1048576");
    }
}
