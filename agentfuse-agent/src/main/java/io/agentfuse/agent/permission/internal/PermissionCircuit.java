package io.agentfuse.agent.permission.internal;

import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.PermissionEvent;
import io.agentfuse.agent.permission.PermissionScope;
import io.agentfuse.agent.permission.PermissionSnapshot;
import io.agentfuse.agent.permission.PermissionState;
import io.agentfuse.agent.permission.Verdict;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.internal.Checks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state machine behind {@link io.agentfuse.agent.permission.PermissionBreaker}, whose Javadoc
 * describes the model. The states are core's user-led breaker ({@code autoHalfOpen(false)}): the
 * denial ledger decides when it {@link CircuitBreaker#open opens}, an explicit approval is
 * {@link CircuitBreaker#transitionToHalfOpen()}, and the next answer is the probe's outcome. What
 * is the permission breaker's own stays here: which categories are blocked, the words of the
 * reason, and the optional timed half-open. Every method first applies a due timed half-open, and
 * appends the events it causes to the list given.
 *
 * <p>Not thread-safe: the breaker calls it under its lock. Not part of the public API.
 */
public final class PermissionCircuit {

    /** The single scope bucket of {@link PermissionScope#GLOBAL}. */
    public static final String GLOBAL_BUCKET = "*";

    private final PermissionConfig config;
    private final Clock clock;
    private final CircuitBreaker circuit;
    private final DenialLedger ledger = new DenialLedger();
    private final Set<String> blocked = new LinkedHashSet<>();
    private String openReason;
    private long openedAtNanos;

    /** A CLOSED circuit with no counts; {@code clock} measures {@code halfOpenAfter} and stamps events. */
    public PermissionCircuit(PermissionConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.circuit = CircuitBreaker.of("permissions", CircuitBreakerConfig.builder()
                .triggers(List.of())
                .autoHalfOpen(false)
                .resetTimeout(Checks.MAX_DURATION)
                .halfOpenRequests(1)
                .build(), clock);
    }

    /** What to do with a call of {@code category} that the agent's policy would or would not auto-approve. */
    public PermissionDecision decide(String category, boolean autoApproved, List<PermissionEvent> events) {
        halfOpenIfDue(events);
        PermissionState state = current();
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
        switch (current()) {
            case CLOSED -> {
                String trip = streak >= config.maxConsecutiveDenials() ? streakReason(streak, category)
                        : ledger.total() >= config.maxTotalDenials() ? ledger.total() + " denials in this session"
                        : null;
                if (trip != null) {
                    if (config.scope() == PermissionScope.CATEGORY) {
                        blocked.add(category);
                    }
                    opened(trip, category, events, () -> circuit.open(trip));
                }
            }
            case OPEN -> {
                if (config.scope() == PermissionScope.CATEGORY && streak >= config.maxConsecutiveDenials()
                        && blocked.add(category)) {
                    events.add(event(PermissionState.OPEN, PermissionState.OPEN, category, streakReason(streak, category)));
                }
            }
            case HALF_OPEN -> opened("a denial of " + category + " during the trial of auto mode", category, events,
                    () -> probe(Outcome.ERROR));
        }
    }

    /** Counts an approval of {@code category}: the probe when explicit and OPEN, the close when HALF_OPEN. */
    public void approved(String category, boolean explicit, List<PermissionEvent> events) {
        halfOpenIfDue(events);
        ledger.recordApproval(bucketOf(category));
        PermissionState state = current();
        if (state == PermissionState.OPEN && explicit) {
            circuit.transitionToHalfOpen();
            events.add(event(state, current(), category, "explicit approval of " + category));
        } else if (state == PermissionState.HALF_OPEN) {
            clear();
            probe(Outcome.SUCCESS);
            events.add(event(state, current(), category, "approval of " + category + " during the trial of auto mode"));
        }
    }

    /** Closes and clears every count. */
    public void reset(List<PermissionEvent> events) {
        clear();
        PermissionState state = current();
        circuit.reset();
        if (state != PermissionState.CLOSED) {
            events.add(event(state, PermissionState.CLOSED, null, "reset"));
        }
    }

    /** The state, after any due timed half-open. */
    public PermissionState state(List<PermissionEvent> events) {
        halfOpenIfDue(events);
        return current();
    }

    /** Everything remembered. */
    public PermissionSnapshot snapshot() {
        PermissionState state = current();
        boolean closed = state == PermissionState.CLOSED;
        return new PermissionSnapshot(state, List.copyOf(blocked), ledger.streaks(), ledger.total(),
                closed ? null : openReason, closed ? null : clock.epochMillisAt(openedAtNanos));
    }

    /** Replaces everything remembered; time spent OPEN before the snapshot still counts. */
    public void restore(PermissionSnapshot snapshot) {
        circuit.reset();
        if (snapshot.state() != PermissionState.CLOSED) {
            circuit.open(String.valueOf(snapshot.openReason()));
        }
        if (snapshot.state() == PermissionState.HALF_OPEN) {
            circuit.transitionToHalfOpen();
        }
        blocked.clear();
        blocked.addAll(snapshot.blockedCategories());
        ledger.restore(snapshot.consecutiveDenials(), snapshot.totalDenials());
        openReason = snapshot.openReason();
        long openedAgoMillis = snapshot.openedAtEpochMillis() == null ? 0
                : Math.max(0, clock.epochMillis() - snapshot.openedAtEpochMillis());
        openedAtNanos = clock.nanoTime() - openedAgoMillis * 1_000_000L;
    }

    /** Core's state in the permission breaker's words (operators' states do not occur: nobody forces this one). */
    private PermissionState current() {
        return switch (circuit.state()) {
            case CLOSED, DISABLED -> PermissionState.CLOSED;
            case OPEN, FORCED_OPEN -> PermissionState.OPEN;
            case HALF_OPEN -> PermissionState.HALF_OPEN;
        };
    }

    /** The user's next answer in HALF_OPEN is the probe: its outcome closes or reopens core's breaker. */
    private void probe(Outcome outcome) {
        long permit = circuit.acquire();
        circuit.onOutcome(permit, outcome, -1L, RetryAfter.NONE);
    }

    private void opened(String reason, String category, List<PermissionEvent> events, Runnable open) {
        PermissionState from = current();
        openReason = reason;
        openedAtNanos = clock.nanoTime();
        open.run();
        events.add(event(from, current(), category, reason));
    }

    private PermissionDecision decision(Verdict verdict, String category, String reason) {
        return new PermissionDecision(verdict, category, current(), reason);
    }

    private void clear() {
        ledger.clear();
        blocked.clear();
        openReason = null;
    }

    /** The optional timed half-open ({@code halfOpenAfter}): the permission breaker's own timer over core's user-led mode. */
    private void halfOpenIfDue(List<PermissionEvent> events) {
        if (current() == PermissionState.OPEN && config.halfOpenAfter() != null
                && clock.nanoTime() - openedAtNanos >= config.halfOpenAfter().toNanos()) {
            circuit.transitionToHalfOpen();
            events.add(event(PermissionState.OPEN, current(), null, "halfOpenAfter " + config.halfOpenAfter() + " elapsed"));
        }
    }

    private PermissionEvent event(PermissionState from, PermissionState to, String category, String reason) {
        return new PermissionEvent(from, to, category, reason,
                category == null ? 0 : ledger.streak(bucketOf(category)), ledger.total(), clock.epochMillis());
    }

    private String streakReason(int streak, String category) {
        return config.scope() == PermissionScope.GLOBAL ? streak + " consecutive denials"
                : streak + " consecutive denials of " + category;
    }

    private String bucketOf(String category) {
        return config.scope() == PermissionScope.GLOBAL ? GLOBAL_BUCKET : category;
    }
}
