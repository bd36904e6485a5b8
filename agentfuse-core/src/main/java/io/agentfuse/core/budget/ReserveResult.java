package io.agentfuse.core.budget;

import java.util.List;
import java.util.Objects;

/**
 * What a ledger answered to a reservation over one or more windows: admitted in all of them, or
 * refused by the first that had nothing left, or undecidable (the ledger cannot tell now).
 *
 * <p>Immutable.
 */
public sealed interface ReserveResult {

    /**
     * Reserved in every window.
     *
     * @param reservationId what to settle it with
     * @param tallies       each window after the reservation, in the order of the claims
     */
    record Admitted(String reservationId, List<WindowTally> tallies) implements ReserveResult {
        public Admitted {
            Objects.requireNonNull(reservationId, "reservationId");
            tallies = List.copyOf(tallies);
        }
    }

    /**
     * Refused, and nothing reserved anywhere.
     *
     * @param claim the index of the first claim whose window had nothing left
     * @param tally that window as it was
     */
    record Refused(int claim, WindowTally tally) implements ReserveResult {
        public Refused {
            Objects.requireNonNull(tally, "tally");
        }
    }

    /**
     * The ledger cannot decide now (a shared ledger that is away and told to refuse then, or one
     * that tracks as many windows as it may), and nothing was reserved.
     *
     * @param reason why, in words
     */
    record Unavailable(String reason) implements ReserveResult {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
