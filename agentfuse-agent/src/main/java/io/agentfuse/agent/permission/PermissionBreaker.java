package io.agentfuse.agent.permission;

import io.agentfuse.agent.permission.internal.PermissionCircuit;
import io.agentfuse.core.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A circuit breaker on the user's "no": after too many denied tool-permission prompts it stops
 * running tools on its own, and only the user turns auto mode back on.
 *
 * <p>The model, state by state ({@link #decide(ToolCall)} answers; the caller reports the user's
 * answers with {@link #recordDenied(ToolCall)} and {@link #recordApproved(ToolCall, boolean)}, or
 * lets {@link #check(ToolCall, ToolApprover)} do all three):
 * <ul>
 *   <li><b>CLOSED</b> (auto mode). Calls the agent's policy auto-approves ({@code autoApproveWhen},
 *       default: all) are {@link Verdict#AUTO_APPROVE}d, the rest {@link Verdict#ASK}. Each denial
 *       extends a streak, per category ({@link PermissionScope#CATEGORY}) or for the whole session
 *       ({@link PermissionScope#GLOBAL}); any approval in the same scope ends it. The breaker opens
 *       when a streak reaches {@code maxConsecutiveDenials} (3), or the session's denials reach
 *       {@code maxTotalDenials} (20).</li>
 *   <li><b>OPEN</b> (manual-confirm mode). With CATEGORY scope, the category of the denial that
 *       tripped it is {@link Verdict#DENY}ed without asking; the reason tells the user how to
 *       re-enable it. Every other call, auto-approved or not, is {@link Verdict#ASK}ed. With
 *       GLOBAL scope no category is to blame, so every call asks. Another category whose streak
 *       reaches the limit is blocked as well. In headless mode there is no one to ask: every
 *       {@code decide} throws {@link PermissionBreakerOpenException}.</li>
 *   <li><b>Reset is user-led.</b> An explicit approval while OPEN ({@code recordApproved(call, true)}:
 *       the user answered yes to a prompt, or chose to allow a call that was denied) is the probe:
 *       the breaker goes HALF_OPEN. Optionally, {@code halfOpenAfter} moves OPEN to HALF_OPEN on
 *       its own after that long.</li>
 *   <li><b>HALF_OPEN</b> (auto mode on trial). Decides as CLOSED. The next approval of any kind
 *       means the user's "yes" stands: CLOSED, with every count cleared. The next denial means it
 *       did not: OPEN again at once, with the categories that were blocked before.</li>
 * </ul>
 *
 * <p>Thread-safe: state changes hold one lock (this is not a hot path; one agent session makes a
 * handful of calls a second at most). Every change publishes one {@link PermissionEvent} to the
 * listeners after the lock is released. {@link #snapshot()} and {@link #restore(PermissionSnapshot)}
 * let a session persist the breaker.
 *
 * <pre>{@code
 * PermissionBreaker breaker = PermissionBreaker.builder()
 *         .autoApproveWhen(call -> !call.name().equals("Bash"))
 *         .build();
 * PermissionCheck check = breaker.check(call, (asked, decision) -> ui.confirm(asked, decision.reason()));
 * String answer = check.granted() ? run(call) : "PERMISSION_DENIED: " + check.refusal();
 * }</pre>
 */
public final class PermissionBreaker {

    /** The single scope bucket of {@link PermissionScope#GLOBAL}, as it appears in snapshots. */
    public static final String GLOBAL_BUCKET = PermissionCircuit.GLOBAL_BUCKET;

    private final PermissionConfig config;
    private final ToolCategorizer categorizer;
    private final Predicate<ToolCall> autoApproveWhen;
    private final PermissionCircuit circuit;
    private final List<PermissionListener> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();

    private PermissionBreaker(Builder builder) {
        this.config = builder.config;
        this.categorizer = builder.categorizer;
        this.autoApproveWhen = builder.autoApproveWhen;
        this.circuit = new PermissionCircuit(builder.config, builder.clock);
    }

    /** A breaker with {@code config}, one category per tool, every call auto-approved when CLOSED. */
    public static PermissionBreaker of(PermissionConfig config) {
        return builder().config(config).build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * What to do with {@code call} now; see the class description.
     *
     * @throws PermissionBreakerOpenException if the breaker is OPEN in headless mode
     */
    public PermissionDecision decide(ToolCall call) {
        String category = categoryOf(call);
        boolean autoApproved = autoApproveWhen.test(call);
        List<PermissionEvent> events = new ArrayList<>(1);
        PermissionDecision decision;
        synchronized (lock) {
            decision = circuit.decide(category, autoApproved, events);
        }
        publish(events);
        if (decision.state() == PermissionState.OPEN && config.headless()) {
            throw new PermissionBreakerOpenException(category, decision.reason());
        }
        return decision;
    }

    /**
     * The whole permission protocol for one call, in one place: decides, asks {@code approver} when
     * the verdict is {@link Verdict#ASK}, and reports the answer. An auto-approved call is granted
     * and reported as an approval that was not explicit; an asked call the user allows is granted
     * and reported as an explicit approval (while OPEN, the user-led probe back to auto mode); one
     * the user refuses is reported as a denial and refused ({@link PermissionCheck#USER_DENIED}); a
     * {@link Verdict#DENY} is refused with the breaker's reason, without asking.
     *
     * @throws PermissionBreakerOpenException if the breaker is OPEN in headless mode (nobody to ask)
     */
    public PermissionCheck check(ToolCall call, ToolApprover approver) {
        Objects.requireNonNull(approver, "approver");
        PermissionDecision decision = decide(call);
        return switch (decision.verdict()) {
            case AUTO_APPROVE -> {
                recordApproved(call, false);
                yield PermissionCheck.grant(decision);
            }
            case DENY -> PermissionCheck.refuse(decision, decision.reason());
            case ASK -> {
                if (approver.approve(call, decision)) {
                    recordApproved(call, true);
                    yield PermissionCheck.grant(decision);
                }
                recordDenied(call);
                yield PermissionCheck.refuse(decision, PermissionCheck.USER_DENIED);
            }
        };
    }

    /** Reports that the user (or the agent's policy) denied {@code call}. */
    public void recordDenied(ToolCall call) {
        String category = categoryOf(call);
        List<PermissionEvent> events = new ArrayList<>(1);
        synchronized (lock) {
            circuit.denied(category, events);
        }
        publish(events);
    }

    /**
     * Reports that {@code call} was approved: {@code explicit} when the user said yes to it
     * (a prompt, or allowing a denied call), not when it ran under auto-approval.
     */
    public void recordApproved(ToolCall call, boolean explicit) {
        String category = categoryOf(call);
        List<PermissionEvent> events = new ArrayList<>(1);
        synchronized (lock) {
            circuit.approved(category, explicit, events);
        }
        publish(events);
    }

    /** Closes the breaker and clears every count, as an operator or a "reset permissions" command. */
    public void reset() {
        List<PermissionEvent> events = new ArrayList<>(1);
        synchronized (lock) {
            circuit.reset(events);
        }
        publish(events);
    }

    /** The current state, after any due timed half-open. */
    public PermissionState state() {
        List<PermissionEvent> events = new ArrayList<>(1);
        PermissionState state;
        synchronized (lock) {
            state = circuit.state(events);
        }
        publish(events);
        return state;
    }

    /** Everything this breaker remembers; see {@link #restore(PermissionSnapshot)}. */
    public PermissionSnapshot snapshot() {
        synchronized (lock) {
            return circuit.snapshot();
        }
    }

    /**
     * Replaces this breaker's memory with {@code snapshot}, without publishing events. Time spent
     * OPEN before the snapshot counts towards {@code halfOpenAfter}.
     */
    public void restore(PermissionSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        synchronized (lock) {
            circuit.restore(snapshot);
        }
    }

    /** Adds a listener for every later event. */
    public void addListener(PermissionListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The configuration. */
    public PermissionConfig config() {
        return config;
    }

    private String categoryOf(ToolCall call) {
        Objects.requireNonNull(call, "call");
        String category = categorizer.categoryOf(call);
        if (category == null || category.isBlank()) {
            throw new IllegalStateException("the categorizer gave no category for " + call.name());
        }
        return category;
    }

    private void publish(List<PermissionEvent> events) {
        for (PermissionEvent event : events) {
            for (PermissionListener listener : listeners) {
                try {
                    listener.onEvent(event);
                } catch (RuntimeException ignored) {
                    // A listener must not break the session it observes.
                }
            }
        }
    }

    /** Builds a {@link PermissionBreaker}. Not thread-safe. */
    public static final class Builder {
        private PermissionConfig config = PermissionConfig.defaults();
        private ToolCategorizer categorizer = ToolCategorizer.byToolName();
        private Predicate<ToolCall> autoApproveWhen = call -> true;
        private Clock clock = Clock.system();

        private Builder() {
        }

        /** Limits, scope and modes; default {@link PermissionConfig#defaults()}. */
        public Builder config(PermissionConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** How calls are sorted into categories; default one per tool name. */
        public Builder categorizer(ToolCategorizer categorizer) {
            this.categorizer = Objects.requireNonNull(categorizer, "categorizer");
            return this;
        }

        /** The agent's own policy: which calls run without asking in auto mode; default all. */
        public Builder autoApproveWhen(Predicate<ToolCall> policy) {
            this.autoApproveWhen = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Measures {@code halfOpenAfter} and stamps events; default {@link Clock#system()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The breaker, CLOSED. */
        public PermissionBreaker build() {
            return new PermissionBreaker(this);
        }
    }
}
