package io.agentfuse.agent.permission.internal;

import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.PermissionEvent;
import io.agentfuse.agent.permission.PermissionScope;
import io.agentfuse.agent.permission.PermissionSnapshot;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.agent.permission.Verdict;
import io.agentfuse.core.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state machine behind {@link io.agentfuse.agent.permission.PermissionBreaker}, whose Javadoc
 * describes the model. Works on categories (the breaker sorts calls); every method first applies
 * a due timed half-open, and appends the events it causes to the list given.
 *
 * <p>Not thread-safe: the breaker calls it under its lock. Not part of the public API.
 */
public final class PermissionCircuit {

    /** The single scope bucket of {@link PermissionScope#GLOBAL}. */
    public static final String GLOBAL_BUCKET = "*";

    private final PermissionConfig config;
    private final Clock clock;
    private final DenialLedger ledger = new DenialLedger();
    private final Set<String> blocked = new LinkedHashSet<>();
    private PermissionState state = PermissionState.CLOSED;
    private String openReason;
    private long openedAtNanos;

    /** A CLOSED circuit with no counts; {@code clock} measures {@code halfOpenAfter} and stamps events. */
    public PermissionCircuit(PermissionConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /** What to do with a call of {@code category} that the agent's policy would or would not auto-approve. */
    public PermissionDecision decide(String category, boolean autoApproved, List<PermissionEvent> events) {
        halfOpenIfDue(events);
        if (state != PermissionState.OPEN) {
            String mode = state == PermissionState.CLOSED ? "auto mode" : "auto mode on trial";
            return autoApproved
                    ? decision(Verdict.AUTO_APPROVE, category, category + " is auto-approved (" + mode + ")")
                    : decision(Verdict.ASK, category, category + " needs confirmation by policy (" + mode + ")");
        }
        if (blocked.contains(category)) {
            return decision(Verdict.DENY, category, category + " is denied without asking: the permission breaker"
                    + " opened after " + openReason + ". Approve one call explicitly to re-enable automatic approval.");
        }
        return decision(Verdict.ASK, category, "manual-confirm mode: the permission breaker opened after "
                + openReason + ", so every call needs confirmation");
    }

    /** Counts a denial of {@code category} and opens, blocks or reopens as it calls for. */
    public void denied(String category, List<PermissionEvent> events) {
        halfOpenIfDue(events);
        int streak = ledger.recordDenial(bucketOf(category));
        switch (state) {
            case CLOSED -> {
                String trip = streak >= config.maxConsecutiveDenials() ? streakReason(streak, category)
                        : ledger.total() >= config.maxTotalDenials() ? ledger.total() + " denials in this session"
                        : null;
                if (trip != null) {
                    openReason = trip;
                    openedAtNanos = clock.nanoTime();
                    if (config.scope() == PermissionScope.CATEGORY) {
                        blocked.add(category);
                    }
                    transition(PermissionState.OPEN, category, trip, events);
                }
            }
            case OPEN -> {
                if (config.scope() == PermissionScope.CATEGORY && streak >= config.maxConsecutiveDenials()
                        && blocked.add(category)) {
                    transition(PermissionState.OPEN, category, streakReason(streak, category), events);
                }
            }
            case HALF_OPEN -> {
                openReason = "a denial of " + category + " during the trial of auto mode";
                openedAtNanos = clock.nanoTime();
                transition(PermissionState.OPEN, category, openReason, events);
            }
        }
    }

    /** Counts an approval of {@code category}: the probe when explicit and OPEN, the close when HALF_OPEN. */
    public void approved(String category, boolean explicit, List<PermissionEvent> events) {
        halfOpenIfDue(events);
        ledger.recordApproval(bucketOf(category));
        if (state == PermissionState.OPEN && explicit) {
            transition(PermissionState.HALF_OPEN, category, "explicit approval of " + category, events);
        } else if (state == PermissionState.HALF_OPEN) {
            clear();
            transition(PermissionState.CLOSED, category, "approval of " + category + " during the trial of auto mode",
                    events);
        }
    }

    /** Closes and clears every count. */
    public void reset(List<PermissionEvent> events) {
        clear();
        if (state != PermissionState.CLOSED) {
            transition(PermissionState.CLOSED, null, "reset", events);
        }
    }

    /** The state, after any due timed half-open. */
    public PermissionState state(List<PermissionEvent> events) {
        halfOpenIfDue(events);
        return state;
    }

    /** Everything remembered. */
    public PermissionSnapshot snapshot() {
        boolean closed = state == PermissionState.CLOSED;
        return new PermissionSnapshot(state, List.copyOf(blocked), ledger.streaks(), ledger.total(),
                closed ? null : openReason, closed ? null : clock.epochMillisAt(openedAtNanos));
    }

    /** Replaces everything remembered; time spent OPEN before the snapshot still counts. */
    public void restore(PermissionSnapshot snapshot) {
        state = snapshot.state();
        blocked.clear();
        blocked.addAll(snapshot.blockedCategories());
        ledger.restore(snapshot.consecutiveDenials(), snapshot.totalDenials());
        openReason = snapshot.openReason();
        long openedAgoMillis = snapshot.openedAtEpochMillis() == null ? 0
                : Math.max(0, clock.epochMillis() - snapshot.openedAtEpochMillis());
        openedAtNanos = clock.nanoTime() - openedAgoMillis * 1_000_000L;
    }

    private PermissionDecision decision(Verdict verdict, String category, String reason) {
        return new PermissionDecision(verdict, category, state, reason);
    }

    private void clear() {
        ledger.clear();
        blocked.clear();
        openReason = null;
    }

    private void halfOpenIfDue(List<PermissionEvent> events) {
        if (state == PermissionState.OPEN && config.halfOpenAfter() != null
                && clock.nanoTime() - openedAtNanos >= config.halfOpenAfter().toNanos()) {
            transition(PermissionState.HALF_OPEN, null, "halfOpenAfter " + config.halfOpenAfter() + " elapsed", events);
        }
    }

    private void transition(PermissionState to, String category, String reason, List<PermissionEvent> events) {
        PermissionState from = state;
        state = to;
        events.add(new PermissionEvent(from, to, category, reason,
                category == null ? 0 : ledger.streak(bucketOf(category)), ledger.total(), clock.epochMillis()));
    }

    private String streakReason(int streak, String category) {
        return config.scope() == PermissionScope.GLOBAL ? streak + " consecutive denials"
                : streak + " consecutive denials of " + category;
    }

    private String bucketOf(String category) {
        return config.scope() == PermissionScope.GLOBAL ? GLOBAL_BUCKET : category;
    }
}
